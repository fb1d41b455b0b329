/**
 * The program as `pulumi up` runs it: the Node.js process the language host starts, with Pulumi's own
 * entry point (`@pulumi/pulumi/cmd/run`), the node arguments and environment the language host derives
 * from Pulumi.yaml's `runtime.options`, and a resource monitor and engine on a local gRPC port.
 *
 * Only the engine is stood in for: the monitor answers each registration from the simulated cloud through
 * the SDK's own MockMonitor (the same answers the tests and `mara plan` use), in this process. Everything
 * in the child — loading the program with the configured loader, Pulumi's source-map support and V8
 * inspector session, the gRPC serialization of every registration — is the real thing.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { RawConfig } from "../../config";
import { BenchRegistration, installBenchMocks } from "./mocks";

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any */
const grpc = require("@grpc/grpc-js");
const resrpc = require("@pulumi/pulumi/proto/resource_grpc_pb");
const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
const engproto = require("@pulumi/pulumi/proto/engine_pb");
const resproto = require("@pulumi/pulumi/proto/resource_pb");
const emptyproto = require("google-protobuf/google/protobuf/empty_pb");
/* eslint-enable @typescript-eslint/no-require-imports */

/** Pulumi.yaml `runtime.options` of the nodejs runtime that decide how the program is loaded. */
export interface NodejsRuntimeOptions {
    /** Default true: Pulumi's run.js registers ts-node (the project's own if installed). */
    readonly typescript?: boolean;
    /** Path of the tsconfig file run.js hands to ts-node. */
    readonly tsconfig?: string;
    /** Extra node arguments, split like a shell command line, placed before Pulumi's entry point. */
    readonly nodeargs?: string;
}

/** Splits a command line as the language host does (shlex): whitespace, single and double quotes, backslash. */
export function splitArgs(line: string): string[] {
    const out: string[] = [];
    let cur = "";
    let quote: '"' | "'" | undefined;
    let any = false;
    for (let i = 0; i < line.length; i++) {
        const c = line[i]!;
        if (quote) {
            if (c === quote) quote = undefined;
            else if (c === "\\" && quote === '"' && i + 1 < line.length) cur += line[++i];
            else cur += c;
        } else if (c === '"' || c === "'") {
            quote = c;
            any = true;
        } else if (c === "\\" && i + 1 < line.length) {
            cur += line[++i];
            any = true;
        } else if (/\s/.test(c)) {
            if (any || cur) out.push(cur);
            cur = "";
            any = false;
        } else cur += c;
    }
    if (quote) throw new Error(`unterminated quote in nodeargs: ${line}`);
    if (any || cur) out.push(cur);
    return out;
}

/** The runtime options as they stand in a Pulumi.yaml (the `runtime:` block; a bare `runtime: nodejs` has none). */
export function runtimeOptionsOf(pulumiYaml: { runtime?: unknown }): NodejsRuntimeOptions {
    const rt = pulumiYaml.runtime;
    if (typeof rt === "string" || rt === undefined) return {};
    return ((rt as { options?: NodejsRuntimeOptions }).options ?? {}) as NodejsRuntimeOptions;
}

/** What the language host starts: node's arguments (before Pulumi's run arguments) and the variables it adds. */
export function languageHostLaunch(options: NodejsRuntimeOptions): { nodeArgs: string[]; env: Record<string, string> } {
    const env: Record<string, string> = {};
    if (options.typescript ?? true) env.PULUMI_NODEJS_TYPESCRIPT = "true";
    if (options.tsconfig) env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;
    return { nodeArgs: splitArgs(options.nodeargs ?? ""), env };
}

/** One message the program logged through the engine. */
export interface EngineLog {
    readonly severity: "debug" | "info" | "warning" | "error";
    readonly message: string;
}

/** Measures of the program's process, taken by bench/lib/hostReport.cjs when it exits. */
export interface ProcessReport {
    /** Milliseconds from process start to exit. */
    readonly ms: number;
    readonly cpuMs: number;
    readonly maxRssMb: number;
    /** Files under the program directory and packages the process had loaded through `require`. */
    readonly loaded?: string[];
}

/** What one run of the program under Pulumi's runtime produced. */
export interface HostedRun {
    readonly exitCode: number | null;
    readonly registrations: BenchRegistration[];
    readonly logs: EngineLog[];
    readonly stdout: string;
    readonly stderr: string;
    /** Absent when the process died before its exit handlers ran. */
    readonly report?: ProcessReport;
}

/** Where and how to run the program. */
export interface HostedProgram {
    /** The project directory (Pulumi.yaml, package.json, node_modules). */
    readonly dir: string;
    /** Pulumi.yaml `main`, relative to `dir` ("." when unset). */
    readonly main: string;
    readonly runtime: NodejsRuntimeOptions;
    /** The stack's configuration as the CLI hands it over (keys `ns:key`, secrets decrypted). */
    readonly config: RawConfig;
    /** Record every registration's inputs (deserialized), e.g. to read a dynamic provider's `__provider`. */
    readonly recordInputs?: boolean;
    /** Report the modules the process loaded (costs a walk of require.cache at exit). */
    readonly reportLoaded?: boolean;
    /** Extra environment for the program (the rest is this process's, minus anything a loader could leak). */
    readonly env?: Record<string, string>;
    /** Give up after this many milliseconds (default 180 s). */
    readonly timeoutMs?: number;
}

const SEVERITY = ["debug", "info", "warning", "error"] as const;
const REPORTER = path.join(__dirname, "hostReport.cjs");

/**
 * Serves a resource monitor and an engine on a free local port, starts the program's process exactly as
 * the language host would, and resolves when that process has exited.
 */
export async function runHosted(p: HostedProgram): Promise<HostedRun> {
    const mocks = await installBenchMocks({
        msPerMinute: 0,
        recordInputs: p.recordInputs ? "all" : "none",
        config: { ...p.config.values },
        secretKeys: [...p.config.secretKeys],
        project: p.config.project,
        stack: p.config.stack,
    });
    const { getMonitor } = require("@pulumi/pulumi/runtime/settings") as { getMonitor(): any }; // eslint-disable-line @typescript-eslint/no-require-imports
    const monitor = getMonitor();
    const logs: EngineLog[] = [];
    let root = "";

    const server = new grpc.Server();
    // MockMonitor answers some calls in-process with plain objects, which gRPC cannot send: give those their message types.
    const responseOf: Record<string, (plain: any) => unknown> = {
        supportsFeature: (plain) => {
            const resp = new resproto.SupportsFeatureResponse();
            resp.setHassupport(plain.getHassupport());
            return resp;
        },
        registerResourceOutputs: () => new emptyproto.Empty(),
        registerStackTransform: () => new emptyproto.Empty(),
        registerStackInvokeTransform: () => new emptyproto.Empty(),
    };
    const forward = (method: string) => (call: any, cb: any) => {
        const impl = monitor[method];
        if (typeof impl !== "function") return cb({ code: grpc.status.UNIMPLEMENTED, details: method });
        const convert = responseOf[method];
        impl.call(monitor, call.request, convert ? (err: unknown, resp: unknown) => cb(err, err ? undefined : convert(resp)) : cb);
    };
    const monitorMethods = Object.keys(resrpc.ResourceMonitorService).filter((m) => m !== "signalAndWaitForShutdown");
    server.addService(resrpc.ResourceMonitorService, {
        ...Object.fromEntries(monitorMethods.map((m) => [m, forward(m)])),
        // Nothing runs after the program here (no delete hooks); the SDK then disconnects.
        signalAndWaitForShutdown: (_call: any, cb: any) => cb(null, new emptyproto.Empty()),
    });
    server.addService(engrpc.EngineService, {
        log: (call: any, cb: any) => {
            logs.push({ severity: SEVERITY[call.request.getSeverity() as number] ?? "info", message: call.request.getMessage() });
            cb(null, new emptyproto.Empty());
        },
        getRootResource: (_call: any, cb: any) => {
            const resp = new engproto.GetRootResourceResponse();
            resp.setUrn(root);
            cb(null, resp);
        },
        setRootResource: (call: any, cb: any) => {
            root = call.request.getUrn();
            cb(null, new engproto.SetRootResourceResponse());
        },
    });
    const port: number = await new Promise((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, bound: number) => (err ? reject(err) : resolve(bound))),
    );
    const address = `127.0.0.1:${port}`;

    const reportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mara-host-")), "report.json");
    const launch = languageHostLaunch(p.runtime);
    const runPath = require.resolve("@pulumi/pulumi/cmd/run", { paths: [p.dir] });
    const args = [
        ...launch.nodeArgs,
        runPath,
        "--monitor", address,
        "--engine", address,
        "--project", p.config.project,
        "--stack", p.config.stack,
        "--root-directory", p.dir,
        "--pwd", p.dir,
        p.main,
    ];
    const env: Record<string, string> = {
        ...cleanEnv(process.env),
        ...launch.env,
        PULUMI_CONFIG: JSON.stringify(p.config.values),
        PULUMI_CONFIG_SECRET_KEYS: JSON.stringify([...p.config.secretKeys]),
        // The measuring preload goes in NODE_OPTIONS, which process.execArgv does not show: run.js looks
        // there for --require/--import to decide between its CommonJS and ES module paths.
        NODE_OPTIONS: `--require ${REPORTER}`,
        MARA_HOST_REPORT: reportFile,
        ...(p.reportLoaded ? { MARA_HOST_REPORT_LOADED: p.dir } : {}),
        ...p.env,
    };
    try {
        const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
            const child = spawn(process.execPath, args, { cwd: p.dir, env, stdio: ["ignore", "pipe", "pipe"] });
            let stdout = "";
            let stderr = "";
            child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
            child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
            const timer = setTimeout(() => {
                child.kill("SIGKILL");
                reject(new Error(`the program did not finish within ${(p.timeoutMs ?? 180_000) / 1000} s:\n${stderr}`));
            }, p.timeoutMs ?? 180_000);
            child.on("error", reject);
            child.on("exit", (code) => {
                clearTimeout(timer);
                resolve({ code, stdout, stderr });
            });
        });
        const report = fs.existsSync(reportFile) ? (JSON.parse(fs.readFileSync(reportFile, "utf8")) as ProcessReport) : undefined;
        return { exitCode: result.code, registrations: mocks.registrations, logs, stdout: result.stdout, stderr: result.stderr, report };
    } finally {
        fs.rmSync(path.dirname(reportFile), { recursive: true, force: true });
        await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    }
}

/** This process's environment without what would change how the child loads code or reads its stack. */
function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
    const drop = /^(NODE_OPTIONS|TS_NODE_.*|PULUMI_NODEJS_.*|PULUMI_CONFIG.*|VITEST.*|AWS_REGION|AWS_DEFAULT_REGION|AWS_PROFILE|DIGITALOCEAN_TOKEN|LINODE_TOKEN)$/;
    return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && !drop.test(e[0])));
}

/** A one-line account of a failed run, with what the program logged. */
export function hostedFailure(run: HostedRun): string {
    const errors = run.logs.filter((l) => l.severity === "error").map((l) => l.message);
    return `exit ${run.exitCode}${errors.length ? `: ${errors.join("; ")}` : ""}\n${run.stderr.trim()}`.trim();
}
