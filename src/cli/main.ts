#!/usr/bin/env node
// The entry point. Kept tiny: `zhi --version` loads only the version line, never the app. Before
// the app loads, Node is asked to keep what it compiles for the next start (compile-cache.ts).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  import('./version.js').then((v) => v.printVersion());
} else {
  import('./compile-cache.js')
    .then((cache) => cache.keepCompiled())
    .then(() => import('./app.js'))
    .then((app) => app.main(argv));
}
