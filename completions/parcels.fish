# parcels shell completion, written by scripts/gen-completions.mjs. The commands, flags and values
# come from `parcels __complete`, which derives them from the command definitions.
# Install: mkdir -p ~/.config/fish/completions && parcels completion fish > ~/.config/fish/completions/parcels.fish

function __parcels_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l current (commandline -ct)
    set -l out (parcels __complete $words $current 2>/dev/null)
    # A file name is wanted here (":files", or ":files@" after an @): fish's own file completion.
    if string match -q -- ':files*' "$out[1]"
        set -l prefix (string replace -- ':files' '' $out[1])
        set -l path (string sub -s (math (string length -- "$prefix") + 1) -- $current)
        for file in (__fish_complete_path $path)
            printf '%s%s
' $prefix $file
        end
        return
    end
    printf '%s
' $out
end
complete -c parcels -f -a '(__parcels_complete)'
