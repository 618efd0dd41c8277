// `kubectl why-pending completion bash|zsh|fish`: scripts that complete the executable
// `kubectl-why_pending` typed directly, by asking it (`kubectl-why_pending __complete ...`, the
// protocol of completion.ts). `kubectl why-pending <TAB>` needs none of them: kubectl's own
// completion runs kubectl_complete-why_pending (bin/), which asks the same question.
import type { shells } from './completion.js';

const command = 'kubectl-why_pending';

// Words are read from the line up to the cursor, split on blanks, so that `--namespace=sh` is
// one word as the program sees it (bash would split it at "="); what bash calls the current
// word is then a suffix of ours, and the candidates lose the part before it.
const bash = `# bash completion for ${command} (kubectl why-pending); load with:
#   source <(${command} completion bash)
_kubectl_why_pending() {
    local line=\${COMP_LINE:0:COMP_POINT} out directive candidate value
    local -a words
    read -r -a words <<< "$line"
    [[ $line == *[[:space:]] ]] && words+=("")
    local current=\${words[\${#words[@]}-1]}
    local strip=\${current%"\${COMP_WORDS[COMP_CWORD]}"}
    out=$(${command} __complete "\${words[@]:1}" 2>/dev/null) || return 0
    directive=\${out##*:}
    [[ $directive =~ ^[0-9]+$ ]] || directive=0
    COMPREPLY=()
    while IFS= read -r candidate; do
        [[ -z $candidate || $candidate == :* ]] && continue
        value=\${candidate%%$'\\t'*}
        [[ $value == "$current"* ]] && COMPREPLY+=("\${value#"$strip"}")
    done <<< "$out"
    if (( \${#COMPREPLY[@]} == 0 && (directive & 4) == 0 )); then
        compopt -o default 2>/dev/null
    fi
    return 0
}
complete -F _kubectl_why_pending ${command}
`;

const zsh = `#compdef ${command}
# zsh completion for ${command} (kubectl why-pending); load with:
#   source <(${command} completion zsh)      (after compinit)
_kubectl_why_pending() {
    local out directive line
    local -a lines values shown
    out=$(${command} __complete "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
    lines=("\${(@f)out}")
    directive=\${lines[-1]#:}
    [[ $directive == <-> ]] || directive=0
    for line in "\${(@)lines[1,-2]}"; do
        [[ -z $line ]] && continue
        values+=("\${line%%$'\\t'*}")
        if [[ $line == *$'\\t'* ]]; then shown+=("\${line%%$'\\t'*}  -- \${line#*$'\\t'}"); else shown+=("$line"); fi
    done
    if (( \${#values} )); then
        compadd -l -d shown -a values
        return 0
    fi
    (( directive & 4 )) || _files
}
compdef _kubectl_why_pending ${command}
`;

const fish = `# fish completion for ${command} (kubectl why-pending); load with:
#   ${command} completion fish | source
function __kubectl_why_pending_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l current (commandline -ct)
    set -l out (${command} __complete $words $current 2>/dev/null)
    or return
    set -l directive (string replace -r '^:' '' -- $out[-1])
    set -e out[-1]
    if test (count $out) -gt 0
        printf '%s\\n' $out
    else if test (math "floor($directive / 4) % 2") -eq 0
        __fish_complete_path $current
    end
end
complete -c ${command} -f -a '(__kubectl_why_pending_complete)'
`;

export const completionScripts: Record<(typeof shells)[number], string> = { bash, zsh, fish };
