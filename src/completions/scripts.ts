/**
 * The bash, zsh and fish completion scripts. They are thin on purpose: each passes the words typed
 * so far to `parcels __complete` and shows what it prints, so every shell completes the same
 * commands, flags and values, all derived from the command definitions (src/completions/complete.ts).
 * `npm run gen:completions` writes them to completions/; a test fails when those files are stale.
 */

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

/** File name of each script in completions/, as shell packagers expect it. */
export const SCRIPT_FILES: Readonly<Record<Shell, string>> = { bash: 'parcels.bash', zsh: '_parcels', fish: 'parcels.fish' };

const HEADER = (install: string): string =>
  '# parcels shell completion, written by scripts/gen-completions.mjs. The commands, flags and values\n' +
  '# come from `parcels __complete`, which derives them from the command definitions.\n' +
  `# Install: ${install}\n`;

const BASH = `${HEADER('mkdir -p ~/.local/share/bash-completion/completions && parcels completion bash > ~/.local/share/bash-completion/completions/parcels (or source it from ~/.bashrc)')}
# bash splits words at ':' and '=' (COMP_WORDBREAKS); the words are joined back before asking
# parcels, and each candidate is cut down to the part bash replaces.
_parcels_complete() {
  local -a words=()
  local i w last
  for ((i = 1; i <= COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    last=$((\${#words[@]} - 1))
    if ((last >= 0)) && [[ $w == ":" || $w == "=" || \${words[last]} == *[:=] ]]; then
      words[last]+="$w"
    else
      words+=("$w")
    fi
  done
  local full="\${words[\${#words[@]} - 1]}" here="\${COMP_WORDS[COMP_CWORD]}"
  [[ $here == ":" || $here == "=" ]] && here=""
  local strip="\${full:0:\${#full}-\${#here}}"
  local out line
  out=$(parcels __complete "\${words[@]}" 2>/dev/null) || return 0
  COMPREPLY=()
  # A file name is wanted here: readline's own file completion does it.
  if [[ $out == :files* ]]; then
    compopt -o default 2>/dev/null
    return 0
  fi
  while IFS= read -r line; do
    [[ -n $line ]] && COMPREPLY+=("\${line%%$'\\t'*}")
  done <<<"$out"
  COMPREPLY=("\${COMPREPLY[@]#"$strip"}")
}
complete -F _parcels_complete parcels
`;

const ZSH = `#compdef parcels
${HEADER("mkdir -p ~/.zfunc && parcels completion zsh > ~/.zfunc/_parcels, and in ~/.zshrc: fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit")}
# The candidates for the words typed so far, as "value:description" for _describe; when a file
# name is wanted instead, files_after holds the part of the word before it (":files@" -> "@").
_parcels_candidates() {
  local line value
  reply=()
  files_after=
  for line in "\${(@f)$(parcels __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -z $line ]] && continue
    if [[ $line == :files* ]]; then
      files_after=":\${line#:files}"
      return
    fi
    value=\${line%%$'\\t'*}
    if [[ $line == *$'\\t'* ]]; then
      reply+=("\${value//:/\\\\:}:\${line#*$'\\t'}")
    else
      reply+=("\${value//:/\\\\:}")
    fi
  done
}

_parcels() {
  local -a reply
  local files_after
  _parcels_candidates
  if [[ -n $files_after ]]; then
    [[ -n \${files_after#:} ]] && compset -P "\${files_after#:}"
    _files
    return
  fi
  _describe -t values parcels reply
}

if [[ "\${funcstack[1]}" == _parcels ]]; then
  _parcels "$@"
else
  compdef _parcels parcels
fi
`;

const FISH = `${HEADER('mkdir -p ~/.config/fish/completions && parcels completion fish > ~/.config/fish/completions/parcels.fish')}
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
            printf '%s%s\n' $prefix $file
        end
        return
    end
    printf '%s\n' $out
end
complete -c parcels -f -a '(__parcels_complete)'
`;

const SCRIPTS: Readonly<Record<Shell, string>> = { bash: BASH, zsh: ZSH, fish: FISH };

export function completionScript(shell: Shell): string {
  return SCRIPTS[shell];
}
