/**
 * More shell rules as data (issue 23 point 8): programs that run a command later or elsewhere,
 * programs with a command language of their own, and programs that change the running system.
 * The files the rules guard are in file-rules.ts, the programs' long options in long-options.ts.
 * program-checks.ts applies them; each has a test in test/unit/shell-programs.test.ts.
 */

/** tmux commands that start a shell command (in a detached session it outlives the run). */
export const TMUX_RUNS = new Set([
  'new',
  'new-session',
  'new-window',
  'neww',
  'split-window',
  'splitw',
  'respawn-pane',
  'respawnp',
  'respawn-window',
  'respawnw',
  'run-shell',
  'run',
  'if-shell',
  'if',
  'send-keys',
  'send',
  'pipe-pane',
  'pipep',
  'display-popup',
  'popup',
  'source-file',
  'source',
]);

/** tmux options that take a value (before its command). */
export const TMUX_VALUE_OPTIONS = ['-L', '-S', '-f', '-T'];

/** sqlite3 dot-commands that run programs or read commands from elsewhere (`.sh` is `.shell`). */
export const SQLITE_RUNS =
  /(^|[\n;])\s*\.(sh\w*|system|load|read|excel|edit|cd|(output|once|import|log|trace)\s+['"]?\|)/i;

/** sqlite3 options whose value is a command or a file of commands. */
export const SQLITE_CODE_OPTIONS = ['-cmd', '--cmd', '-init', '--init'];

/** Python modules that read code from their input (`curl … | python3 -m code`). */
export const PYTHON_REPL_MODULES = new Set([
  'code',
  'pdb',
  'asyncio',
  'idlelib',
  'IPython',
  'ptpython',
  'bpython',
]);

/**
 * Options whose value is a file of commands the program runs; given `-` or `/dev/stdin` (code
 * arriving on the input) or a value known only at run time, the command is refused.
 */
export const COMMAND_FILE_OPTIONS: Record<string, string[]> = {
  make: ['-f', '--file', '--makefile'],
  gmake: ['-f', '--file', '--makefile'],
};

/**
 * Programs whose input is a command language with a way to run programs (`!cmd`, `shell`,
 * `\\!`): fed by a pipe, a redirect or a here-string, they run what cannot be checked.
 */
export const INPUT_RUNNERS = new Set([
  'gdb',
  'ed',
  'ex',
  'vim',
  'vi',
  'nvim',
  'mysql',
  'mariadb',
  'psql',
  'ftp',
  'lftp',
  'sftp',
  'script',
  'expect',
  'su',
]);

/** Arguments of SQL clients that run a program (`mysql -e '\\! rm …'`, `psql -c '\\! …'`). */
export const SQL_CLIENT_SHELL = /\\!|^\s*system\s/m;

/** Programs that run a command later, outside this conversation, whatever their arguments. */
export const SCHEDULERS = new Set(['batch']);

/** `at` options that only list, show or remove jobs. */
export const AT_READ_ONLY = /^-[lcdrV]+$/;

/** Programs that stop every process at once. */
export const KILL_EVERYTHING = new Set(['killall5']);

/** Programs that change how the running system works (kernel modules, swap, kernel settings). */
export const SYSTEM_CHANGERS: Record<string, RegExp> = {
  swapoff: /./,
  rmmod: /./,
  insmod: /./,
  modprobe: /^(-r|--remove)$/,
  kexec: /./,
  sysctl: /^(-w|--write|-p|--load|[a-z_.]+=.*)$/,
  mount: /remount|^--(move|bind|rbind)$|^-[a-zA-Z]*[BM]$/,
  umount: /./,
  userdel: /./,
  deluser: /./,
  usermod: /^-([a-zA-Z]*[LesU]|-lock|-expiredate|-shell)/,
  passwd: /^-([a-zA-Z]*[dle]|-delete|-lock|-expire)/,
  chpasswd: /./,
  // Windows: `net user ann /delete`, `net user ann /active:no`.
  net: /^\/(delete|del|active:no)$/i,
};

/**
 * Environment variables whose value is a command or code some program runs (`BASH_ENV` for every
 * script, `LD_PRELOAD` for every program, `PAGER` for man and git): setting one is indirect execution.
 */
export const CODE_VARIABLES = new Set([
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'LD_PRELOAD',
  'LD_AUDIT',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES',
  'PERL5OPT',
  'PERL5LIB',
  'RUBYOPT',
  'NODE_OPTIONS',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PAGER',
  'MANPAGER',
  'GIT_PAGER',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_GLOBAL',
  'LESSOPEN',
  'LESSCLOSE',
  'BROWSER',
]);

/** git subcommands and the options with which they run a command line. */
export const GIT_RUNS: Record<string, RegExp> = {
  rebase: /^(-x|--exec)(=|$)|^-[a-zA-Z]*x/,
  bisect: /^run$/,
  submodule: /^foreach$/,
  'filter-branch': /^--[a-z-]*filter$/,
  difftool: /^(-x|--extcmd)(=|$)/,
  mergetool: /^--tool-cmd/,
  'for-each-repo': /./,
};
