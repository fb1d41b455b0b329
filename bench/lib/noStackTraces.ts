/**
 * Preload (`-r ./bench/lib/noStackTraces.ts`, after the loader) that stops V8 from collecting stack traces.
 * The SDK records a stack trace for every promise it creates (runtime/debuggable.js) and Pulumi's
 * source-map support maps each frame; with this preload a benchmark child shows what that costs, e.g.
 *   node --expose-gc -r sucrase/register/ts -r ./bench/lib/noStackTraces.ts bench/scaling/run.ts 50
 */
Error.stackTraceLimit = 0;
