# parcels shell completion, written by scripts/gen-completions.mjs. The commands, flags and values
# come from `parcels __complete`, which derives them from the command definitions.
# Install: parcels completion fish > ~/.config/fish/completions/parcels.fish

function __parcels_complete
    set -l words (commandline -opc)
    set -e words[1]
    parcels __complete $words (commandline -ct) 2>/dev/null
end
complete -c parcels -f -a '(__parcels_complete)'
