/**
 * The programs the destructive-command rules (destructive.ts) know, by what they do: delete,
 * move, change permissions, format or partition disks, power off, wipe contents, stop processes.
 */
import { isRunner } from './programs.js';
import { DELETING_SUBCOMMANDS, DISK_DESTROYERS } from './rules.js';

export const DELETE = new Set([
  'rm',
  'unlink',
  'rmdir',
  'del',
  'erase',
  'rd',
  'remove-item',
  'ri',
  'srm',
  'trash',
]);
export const MOVE = new Set(['mv', 'move', 'ren', 'rename', 'move-item', 'mi', 'rename-item', 'rni']);
export const PERMS = new Set([
  'chmod',
  'chown',
  'chgrp',
  'chattr',
  'setfacl',
  'icacls',
  'takeown',
  'cacls',
  'attrib',
]);
export const FORMAT = new Set([
  'mkfs',
  'mke2fs',
  'mkswap',
  'mkdosfs',
  'mkntfs',
  'mkfs.ext4',
  'newfs',
  'wipefs',
  'diskpart',
  'format-volume',
  'clear-disk',
  'initialize-disk',
]);
export const PARTITION = new Set(['fdisk', 'sfdisk', 'cfdisk', 'parted', 'gdisk', 'sgdisk', 'gparted']);
export const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'stop-computer', 'restart-computer']);
export const CONTENT = new Set([
  'truncate',
  'shred',
  'wipe',
  'set-content',
  'clear-content',
  'out-file',
  'clear-item',
]);

export const KILL = new Set(['kill', 'killall', 'pkill', 'taskkill', 'stop-process']);

const OTHER_WATCHED = new Set([
  'dd',
  'find',
  'cp',
  'copy',
  'xcopy',
  'ln',
  'install',
  'tee',
  'rsync',
  'crontab',
  'git',
  'sed',
  'gsed',
  'curl',
  'wget',
  'unzip',
  'systemctl',
  'init',
  'diskutil',
  'format',
]);

/** A program some rule of destructive.ts or program-checks.ts looks at. */
export function isWatched(name: string): boolean {
  return (
    DELETE.has(name) ||
    MOVE.has(name) ||
    PERMS.has(name) ||
    FORMAT.has(name) ||
    name.startsWith('mkfs.') ||
    PARTITION.has(name) ||
    POWER.has(name) ||
    CONTENT.has(name) ||
    KILL.has(name) ||
    OTHER_WATCHED.has(name) ||
    name in DISK_DESTROYERS ||
    name in DELETING_SUBCOMMANDS ||
    isRunner(name)
  );
}
