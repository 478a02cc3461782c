/**
 * Shell rules as data about files: programs that change, write or delete the files they name,
 * their options naming an output or a destination folder, and the files a write must never reach
 * (the running kernel's, those that run at log-in). program-checks.ts applies them; each has a
 * test in test/unit/shell-programs.test.ts.
 */

/** Archivers' options that delete the files they archive (`tar --remove-files`, `zip -m`). */
export const ARCHIVE_DELETES: Record<string, RegExp> = {
  tar: /^--remove-files$/,
  zip: /^(-[a-zA-Z]*m[a-zA-Z]*|--move)$/,
  '7z': /^-sdel$/,
  rsync: /^--remove-source-files$/,
};

/** Options naming the folder a program unpacks or copies into (`tar -x -C ~`, `unzip -d ~`). */
export const INTO_OPTIONS: Record<string, string[]> = {
  tar: ['-C', '--directory'],
  unzip: ['-d'],
  bsdtar: ['-C', '--directory'],
};

/** Write targets that change the running kernel (`echo c > /proc/sysrq-trigger`). */
export const KERNEL_FILES = /^\/(proc\/sys(rq-trigger)?|sys)(\/|$)/;

/**
 * Files in the home folder that run code when a shell, a session or a program starts, or that
 * grant access to the computer: changing or deleting one plants a command for later. Paths are
 * relative to the home folder; a trailing `/` means everything inside that folder.
 */
export const STARTUP_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.cshrc',
  '.tcshrc',
  '.login',
  '.kshrc',
  '.mkshrc',
  '.inputrc',
  '.xinitrc',
  '.xprofile',
  '.xsession',
  '.xsessionrc',
  '.Xresources',
  '.pam_environment',
  '.gitconfig',
  '.config/git/config',
  '.vimrc',
  '.exrc',
  '.emacs',
  '.emacs.d/init.el',
  '.npmrc',
  '.pythonrc',
  '.curlrc',
  '.wgetrc',
  '.ssh/',
  '.config/autostart/',
  '.config/systemd/',
  '.config/environment.d/',
  '.config/fish/',
  '.config/nvim/',
  '.local/share/applications/',
  '.local/bin/',
  'bin/',
  'Library/LaunchAgents/',
];

/** Programs that change or delete the files named as their operands. */
export const FILE_CHANGERS = new Set([
  'rm',
  'unlink',
  'mv',
  'shred',
  'truncate',
  'tee',
  'srm',
  'wipe',
  'chmod',
  'chown',
  'chattr',
]);

/** Programs whose last operand (or `-t dir`) is the file they write. */
export const FILE_WRITERS = new Set(['cp', 'install', 'ln', 'rsync', 'scp', 'copy', 'xcopy']);

/** Options naming the file a program writes its output to. */
export const OUTPUT_OPTIONS: Record<string, string[]> = {
  curl: ['-o', '--output'],
  wget: ['-O', '--output-document'],
  sort: ['-o', '--output'],
};
