/**
 * The body of `mara outdated`, loaded only when the command runs: it pulls in the configuration, the
 * component constants and the YAML and SemVer libraries, which `mara --help` should not pay for.
 */
import * as path from "path";
import { EXIT, line } from "../kernel/io";
import type { CliIo } from "../kernel/io";
import { configTarget } from "../stack/configTarget";
import { checkConfig } from "../kernel/report";
import { locateStackFile, readStackFile, StackFileChoice } from "../stack/stackSource";
import { checkPins } from "../outdated/check";
import { DEFAULT_MAX_BYTES, ENDPOINTS_VARIABLE, EndpointsError, parseEndpoints, RUN_BOUND_FACTOR } from "../outdated/http";
import { defaultPinSettings, PinSettings, pinsOf, stackPinSettings } from "../outdated/pins";
import { exitCodeOf, PinOrigin, renderFailures, renderJson, renderTable } from "../outdated/report";

/** Options of `mara outdated`. */
export interface OutdatedOptions extends StackFileChoice {
    /** Print JSON instead of the table. */
    readonly json?: boolean;
    /** Seconds each request may take. */
    readonly timeout: number;
}

/**
 * Looks up every pin and prints what is newer.
 *
 * @returns 0 all current, 4 something newer, 5 a source could not be checked, 1 invalid stack configuration, 2 bad usage.
 */
export async function runOutdated(opts: OutdatedOptions, io: CliIo): Promise<number> {
    try {
        const endpoints = parseEndpoints(io.env[ENDPOINTS_VARIABLE]);
        const chosen = choosePins(opts, io);
        if (chosen === undefined) return EXIT.failed;
        // Each request is bounded by --timeout, the whole run by RUN_BOUND_FACTOR times it: a source that answers every
        // page just in time, page after page, cannot keep the command going.
        const deadline = Date.now() + opts.timeout * 1000 * RUN_BOUND_FACTOR;
        const check = await checkPins(pinsOf(chosen.settings), { timeoutMs: opts.timeout * 1000, endpoints, maxBytes: DEFAULT_MAX_BYTES, deadline });
        const code = exitCodeOf(check);
        io.stdout.write(opts.json ? renderJson(check, chosen.origin, code) : renderTable(check, chosen.origin));
        io.stderr.write(renderFailures(check));
        return code;
    } catch (err) {
        // This module is loaded apart from the command module (lazily), so under a test runner its CliError
        // may be another class than the one `action` knows: recognise expected errors by name.
        const e = err as { name?: string; message?: string; exitCode?: number };
        if (e?.name === "CliError") {
            line(io.stderr, `mara: ${e.message}`);
            return e.exitCode ?? EXIT.failed;
        }
        if (err instanceof EndpointsError) {
            line(io.stderr, `mara: ${err.message}`);
            return EXIT.usage;
        }
        throw err;
    }
}

/** The program's defaults, or a stack's configuration when one is named (validated first, as `plan` does). */
function choosePins(opts: OutdatedOptions, io: CliIo): { settings: PinSettings; origin: PinOrigin } | undefined {
    if (!opts.configFile && !opts.stack) return { settings: defaultPinSettings(), origin: { defaults: true } };
    const file = locateStackFile(opts, io.cwd, io.projectDir);
    const raw = readStackFile(file, io.env, io.projectDir);
    const result = checkConfig(io, raw, file.path, configTarget(file, io.projectDir));
    if (!result) return undefined;
    return { settings: stackPinSettings(result.config), origin: { defaults: false, stack: file.stack, file: path.relative(io.cwd, file.path) || file.path } };
}
