/**
 * Where a Pulumi command's time goes, from the OpenTelemetry spans the CLI writes with `--otel-traces file://<file>`
 * (JSON lines of OTLP `resourceSpans`, nanosecond times): the CLI's start until the program runs, the program's
 * start until its first registration (Node.js, the SDK and the program's modules loading), the program's run, the
 * resource providers' calls (summed per method: they overlap, so the sums can exceed the wall time), and the time
 * after the program ends.
 */
import * as fs from "fs";

interface Span {
    readonly service: string;
    readonly name: string;
    readonly start: bigint;
    readonly end: bigint;
}

/** The breakdown of one traced command, in seconds. */
export interface TraceBreakdown {
    /** The CLI's whole command (`pulumi` span). */
    readonly total: number;
    /** From the command's start until the language host is asked to run the program. */
    readonly untilProgramRuns: number;
    /** From the program's run until its first `RegisterResource`: Node.js, the SDK and the program's modules loading, the configuration read. */
    readonly programStartToFirstRegistration: number;
    /** The program's run, from `Run` until it returns (its registrations and the steps the engine runs meanwhile). */
    readonly programRun: number;
    /** After the program returned, until the command ends. */
    readonly afterProgram: number;
    /** Number of `RegisterResource` calls. */
    readonly registrations: number;
    /** Seconds the CLI spent waiting on resource providers, summed per method (`Check`, `Diff`, `Read`, …), with the call counts. */
    readonly providerCalls: Readonly<Record<string, { seconds: number; calls: number }>>;
    /** Seconds spent starting plugins (`newPlugin`), summed, with the count. */
    readonly pluginStarts: { seconds: number; count: number };
    /**
     * From the stack's root resource (the SDK registers it before the program's modules load) to the program's first
     * own registration: the program's modules loading and its configuration read, with no call to the engine.
     */
    readonly rootToFirstOwnRegistration: number;
    /** From the program's run until its last `RegisterResource` starts: how long the program takes to declare everything. */
    readonly programStartToLastRegistration: number;
}

function readSpans(file: string): Span[] {
    const spans: Span[] = [];
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
        if (!line.trim()) continue;
        const doc = JSON.parse(line) as { resourceSpans?: { resource?: { attributes?: { key: string; value: { stringValue?: string } }[] }; scopeSpans?: { spans?: { name: string; startTimeUnixNano: string; endTimeUnixNano: string }[] }[] }[] };
        for (const rs of doc.resourceSpans ?? []) {
            const service = rs.resource?.attributes?.find((a) => a.key === "service.name")?.value.stringValue ?? "";
            for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ service, name: s.name, start: BigInt(s.startTimeUnixNano), end: BigInt(s.endTimeUnixNano) });
        }
    }
    return spans;
}

const seconds = (ns: bigint) => Number(ns) / 1e9;

/** Reads a trace file the CLI wrote with `--otel-traces file://<file>`. */
export function traceBreakdown(file: string): TraceBreakdown {
    const spans = readSpans(file).filter((s) => s.service === "pulumi-cli");
    const one = (name: string) => {
        const s = spans.find((x) => x.name === name);
        if (!s) throw new Error(`the trace ${file} has no ${name} span`);
        return s;
    };
    const total = one("pulumi");
    const run = one("pulumirpc.LanguageRuntime/Run");
    const registrations = spans.filter((s) => s.name === "pulumirpc.ResourceMonitor/RegisterResource").sort((a, b) => (a.start < b.start ? -1 : 1));
    const providerCalls: Record<string, { seconds: number; calls: number }> = {};
    for (const s of spans) {
        const m = /^pulumirpc\.ResourceProvider\/(.+)$/.exec(s.name);
        if (!m) continue;
        const entry = (providerCalls[m[1]!] ??= { seconds: 0, calls: 0 });
        entry.seconds += seconds(s.end - s.start);
        entry.calls++;
    }
    const plugins = spans.filter((s) => s.name === "newPlugin");
    return {
        total: seconds(total.end - total.start),
        untilProgramRuns: seconds(run.start - total.start),
        programStartToFirstRegistration: registrations.length ? seconds(registrations[0]!.start - run.start) : 0,
        programRun: seconds(run.end - run.start),
        afterProgram: seconds(total.end - run.end),
        registrations: registrations.length,
        providerCalls,
        pluginStarts: { seconds: plugins.reduce((a, s) => a + seconds(s.end - s.start), 0), count: plugins.length },
        rootToFirstOwnRegistration: registrations.length > 1 ? seconds(registrations[1]!.start - registrations[0]!.start) : 0,
        programStartToLastRegistration: registrations.length ? seconds(registrations.at(-1)!.start - run.start) : 0,
    };
}
