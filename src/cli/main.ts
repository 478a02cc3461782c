// The entry point. Kept tiny: `zhi --version` answers without importing anything else.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__ZHI_VERSION__}\n`);
} else {
  import('./app.js').then((app) => app.main(argv));
}
