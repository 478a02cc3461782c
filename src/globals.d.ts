/** Injected by the build (scripts/build.mjs) from package.json. */
declare const __ZHI_VERSION__: string;
