/**
 * Shell completion scripts for bash, zsh, fish and PowerShell, made from zhi's own tables (its
 * subcommands, flags and config keys), so they cannot drift from what zhi accepts. Skill names
 * are asked of zhi itself when completing (`zhi __complete skills`, hidden), so a new skill is
 * completed without reinstalling the script. Pure: text in, text out.
 */
import { CONFIG_KEYS } from '../support/config-schema.js';
import { GLOBAL_FLAGS, SUBCOMMANDS } from './args.js';
import { FOLDER_LISTS, FOLDER_SWITCHES } from './folder-flags.js';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** The words that follow a subcommand (its actions). */
const ACTIONS: Record<string, readonly string[]> = {
  config: ['show', 'path', 'get', 'set', 'reset', 'allow'],
  skill: ['list', 'show', 'new', 'edit', 'delete', 'trust', 'export', 'import'],
  sessions: ['list', 'export', 'delete'],
  mcp: ['list', 'add', 'remove', 'test', 'import', 'login'],
  batch: ['list', 'status', 'results', 'cancel'],
  schedule: ['add', 'list', 'show', 'run', 'logs', 'pause', 'resume', 'remove', 'confirm'],
  completion: COMPLETION_SHELLS,
};
/** Where a skill's name goes: right after `run`, after `skill show|edit|…`. */
const SKILL_AFTER = ['show', 'edit', 'delete', 'trust', 'export'];

/** Everything the scripts offer, as words. */
export function completionWords(): {
  commands: string[];
  flags: string[];
  actions: Record<string, readonly string[]>;
  keys: string[];
} {
  const folder = [...FOLDER_SWITCHES, ...FOLDER_LISTS, 'jobs'].map((f) => `--${f}`);
  return {
    commands: SUBCOMMANDS.filter((c) => !c.startsWith('_')),
    flags: [...new Set([...GLOBAL_FLAGS.filter((f) => f.startsWith('--')), ...folder])].sort(),
    actions: ACTIONS,
    keys: [...CONFIG_KEYS],
  };
}

export function completionScript(shell: CompletionShell): string {
  const w = completionWords();
  return { bash, zsh, fish, powershell }[shell](w);
}

type Words = ReturnType<typeof completionWords>;
const list = (words: readonly string[]) => words.join(' ');

function bash(w: Words): string {
  const cases = Object.entries(w.actions)
    .map(([cmd, words]) => `      ${cmd}) COMPREPLY=($(compgen -W "${list(words)}" -- "$cur")); return ;;`)
    .join('\n');
  return `# zhi completion for bash. Install: zhi completion bash > ~/.local/share/bash-completion/completions/zhi
_zhi() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" action="\${COMP_WORDS[2]}"
  COMPREPLY=()
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "${list(w.flags)}" -- "$cur")); return
  fi
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${list(w.commands)}" -- "$cur")); return
  fi
  if [[ $COMP_CWORD -eq 2 ]]; then
    case "$cmd" in
      run) COMPREPLY=($(compgen -W "$(command zhi __complete skills 2>/dev/null)" -- "$cur")); return ;;
${cases}
    esac
  fi
  if [[ $COMP_CWORD -eq 3 && "$cmd" == config && ( "$action" == get || "$action" == set ) ]]; then
    COMPREPLY=($(compgen -W "${list(w.keys)}" -- "$cur")); return
  fi
  if [[ $COMP_CWORD -eq 3 && "$cmd" == skill && " ${list(SKILL_AFTER)} " == *" $action "* ]]; then
    COMPREPLY=($(compgen -W "$(command zhi __complete skills 2>/dev/null)" -- "$cur")); return
  fi
}
complete -o default -o bashdefault -F _zhi zhi
`;
}

function zsh(w: Words): string {
  const cases = Object.entries(w.actions)
    .map(([cmd, words]) => `      ${cmd}) compadd -- ${list(words)}; return ;;`)
    .join('\n');
  return `#compdef zhi
# zhi completion for zsh. Install: zhi completion zsh > "\${fpath[1]}/_zhi" (or source it after compinit)
_zhi() {
  local cmd=\${words[2]} action=\${words[3]}
  if [[ \${words[CURRENT]} == -* ]]; then compadd -- ${list(w.flags)}; return; fi
  if (( CURRENT == 2 )); then compadd -- ${list(w.commands)}; return; fi
  if (( CURRENT == 3 )); then
    case $cmd in
      run) compadd -- \${(f)"$(command zhi __complete skills 2>/dev/null)"}; return ;;
${cases}
    esac
  fi
  if (( CURRENT == 4 )) && [[ $cmd == config && ( $action == get || $action == set ) ]]; then
    compadd -- ${list(w.keys)}; return
  fi
  if (( CURRENT == 4 )) && [[ $cmd == skill && " ${list(SKILL_AFTER)} " == *" $action "* ]]; then
    compadd -- \${(f)"$(command zhi __complete skills 2>/dev/null)"}; return
  fi
  _files
}
if [[ "\${funcstack[1]}" == _zhi ]]; then _zhi "$@"; else compdef _zhi zhi; fi
`;
}

function fish(w: Words): string {
  const lines = [
    '# zhi completion for fish. Install: zhi completion fish > ~/.config/fish/completions/zhi.fish',
    'function __zhi_at; test (count (commandline -opc)) -eq $argv[1]; end',
    'function __zhi_skills; command zhi __complete skills 2>/dev/null; end',
    `complete -c zhi -n '__zhi_at 1' -f -a '${list(w.commands)}'`,
    ...w.flags.map((f) => `complete -c zhi -l ${f.slice(2)}`),
    `complete -c zhi -n '__zhi_at 2; and __fish_seen_subcommand_from run' -f -a '(__zhi_skills)'`,
    ...Object.entries(w.actions).map(
      ([cmd, words]) =>
        `complete -c zhi -n '__zhi_at 2; and __fish_seen_subcommand_from ${cmd}' -f -a '${list(words)}'`,
    ),
    `complete -c zhi -n '__zhi_at 3; and __fish_seen_subcommand_from get set' -f -a '${list(w.keys)}'`,
    `complete -c zhi -n '__zhi_at 3; and __fish_seen_subcommand_from ${list(SKILL_AFTER)}' -f -a '(__zhi_skills)'`,
  ];
  return `${lines.join('\n')}\n`;
}

function powershell(w: Words): string {
  const quoted = (words: readonly string[]) => words.map((x) => `'${x}'`).join(', ');
  const cases = Object.entries(w.actions)
    .map(([cmd, words]) => `      '${cmd}' { $candidates = @(${quoted(words)}) }`)
    .join('\n');
  return `# zhi completion for PowerShell. Install: zhi completion powershell >> $PROFILE
Register-ArgumentCompleter -Native -CommandName zhi, zhi.exe -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })
  $at = if ($wordToComplete -eq '') { $words.Count } else { $words.Count - 1 }
  $candidates = @()
  if ($wordToComplete -like '-*') { $candidates = @(${quoted(w.flags)}) }
  elseif ($at -eq 1) { $candidates = @(${quoted(w.commands)}) }
  elseif ($at -eq 2) {
    switch ($words[1]) {
      'run' { $candidates = @(zhi __complete skills 2>$null) }
${cases}
    }
  }
  elseif ($at -eq 3 -and $words[1] -eq 'config' -and ($words[2] -eq 'get' -or $words[2] -eq 'set')) { $candidates = @(${quoted(w.keys)}) }
  elseif ($at -eq 3 -and $words[1] -eq 'skill' -and @(${quoted(SKILL_AFTER)}) -contains $words[2]) { $candidates = @(zhi __complete skills 2>$null) }
  $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
  }
}
`;
}
