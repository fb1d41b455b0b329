/**
 * Short stack traces while the program runs offline.
 *
 * The Pulumi SDK records a stack trace for every promise it makes (@pulumi/pulumi runtime/debuggable.js,
 * `debuggablePromise`, which reads `new Error().stack`) so that it can name leaked promises when
 * PULUMI_DEBUG_PROMISE_LEAKS is set; nothing else reads them. One offline run of the platform makes thousands, and
 * wherever stack frames are mapped back to sources (the test runner's source maps, source-map-support) formatting
 * them is a sixth to a quarter of the run's CPU (docs/benchmarks.md, "The SDK's stack trace per promise"). While the program
 * runs offline, every trace keeps its innermost {@link OFFLINE_STACK_FRAMES} frames: enough to find where an error was
 * thrown, and cheap to make. A process started with a limit of its own (`node --stack-trace-limit=N`), or with
 * PULUMI_DEBUG_PROMISE_LEAKS set, keeps its limit.
 */

/** V8's limit when no one set another (`node --stack-trace-limit` unset). */
const V8_DEFAULT_LIMIT = 10;
/** The frames a stack trace keeps while the program runs offline. */
export const OFFLINE_STACK_FRAMES = 3;

/**
 * Runs `run` (an offline run of the program, and the wait for its registrations) with short stack traces, and puts
 * the limit back when it ends. Nested calls leave the limit to the outermost.
 */
export async function withShortStackTraces<T>(run: () => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
    if (env.PULUMI_DEBUG_PROMISE_LEAKS || Error.stackTraceLimit !== V8_DEFAULT_LIMIT) return run();
    Error.stackTraceLimit = OFFLINE_STACK_FRAMES;
    try {
        return await run();
    } finally {
        Error.stackTraceLimit = V8_DEFAULT_LIMIT;
    }
}
