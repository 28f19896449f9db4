# parcels shell completion, written by scripts/gen-completions.mjs. The commands, flags and values
# come from `parcels __complete`, which derives them from the command definitions.
# Install: mkdir -p ~/.local/share/bash-completion/completions && parcels completion bash > ~/.local/share/bash-completion/completions/parcels (or source it from ~/.bashrc)

# bash splits words at ':' and '=' (COMP_WORDBREAKS); the words are joined back before asking
# parcels, and each candidate is cut down to the part bash replaces.
_parcels_complete() {
  local -a words=()
  local i w last
  for ((i = 1; i <= COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    last=$((${#words[@]} - 1))
    if ((last >= 0)) && [[ $w == ":" || $w == "=" || ${words[last]} == *[:=] ]]; then
      words[last]+="$w"
    else
      words+=("$w")
    fi
  done
  local full="${words[${#words[@]} - 1]}" here="${COMP_WORDS[COMP_CWORD]}"
  [[ $here == ":" || $here == "=" ]] && here=""
  local strip="${full:0:${#full}-${#here}}"
  local out line
  out=$(parcels __complete "${words[@]}" 2>/dev/null) || return 0
  COMPREPLY=()
  # A file name is wanted here: readline's own file completion does it.
  if [[ $out == :files* ]]; then
    compopt -o default 2>/dev/null
    return 0
  fi
  while IFS= read -r line; do
    [[ -n $line ]] && COMPREPLY+=("${line%%$'\t'*}")
  done <<<"$out"
  COMPREPLY=("${COMPREPLY[@]#"$strip"}")
}
complete -F _parcels_complete parcels
