#!/usr/bin/env node
// The entry point. Kept tiny: `zhi --version` loads only the version line, never the app.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  import('./version.js').then((v) => v.printVersion());
} else {
  import('./app.js').then((app) => app.main(argv));
}
