/**
 * `mara open <name>`: reaches one of the platform's web interfaces without DNS or an ingress address, by a
 * port-forward through the stack's kubeconfig (MARA's port-forward script), and prints the local URL. It runs
 * until interrupted (Ctrl+C).
 */
import type { MaraConfig } from "../../config";
import type { CommandContext } from "../command";
import { KubeApiError, kubeClient, KubeClient, kubeConfigFrom } from "../doctor/kubeClient";
import { DoctorTarget, targetOfConfig, targetOfFile } from "../doctor/target";
import { CliError, CliIo, EXIT, line } from "../io";
import { checkConfig } from "../report";
import { locateStackFile, readStackFile } from "../stackSource";
import { apiServerForwarder, Forwarder, listen, Listener } from "../open/forward";
import { OpenError, resolveForward } from "../open/resolve";
import { OPEN_TARGET_NAMES, OPEN_TARGETS } from "../open/targets";
import { DEFAULTS } from "../../contracts/defaults";

/** Options of {@link open}. */
export interface OpenOptions {
    readonly configFile?: string;
    readonly stack?: string;
    readonly kubeconfig?: string;
    readonly context?: string;
    /** Local port; default a free one. */
    readonly port?: string;
}

/**
 * Forwards to the named interface until interrupted.
 *
 * @returns 0 after an interrupt; 1 when the interface is not there (not deployed, no ready pod); 2 for a wrong
 *   command line; 7 when the cluster cannot be reached or refuses the credentials.
 */
export async function open(name: string, opts: OpenOptions, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    if (!OPEN_TARGETS[name]) throw new CliError(`"${name}" is not one of the interfaces mara open knows: ${OPEN_TARGET_NAMES.join(", ")}`, EXIT.usage);
    const port = opts.port === undefined ? 0 : Number(opts.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port ${opts.port} is not a port number (0 to 65535; 0 picks a free one)`, EXIT.usage);
    let cfg: MaraConfig | undefined;
    if (opts.configFile !== undefined || opts.stack !== undefined || !opts.kubeconfig) {
        const file = locateStackFile({ configFile: opts.configFile, stack: opts.stack }, io.cwd);
        const result = checkConfig(io, readStackFile(file, io.env, io.projectDir), file.path);
        if (!result) return EXIT.failed;
        cfg = result.config;
    }
    const target: DoctorTarget = opts.kubeconfig
        ? targetOfFile(opts.kubeconfig, opts.context ?? (cfg?.infra.type === "kubeconfig" ? cfg.infra.context : undefined), io.cwd, io.env)
        : { ...targetOfConfig(cfg!, io.env, io.projectDir), ...(opts.context ? { context: opts.context } : {}) };
    let kc;
    try {
        kc = kubeConfigFrom(target.kubeconfig, target.context);
    } catch (e) {
        throw new CliError(`${target.source}: ${(e as Error).message}`, EXIT.usage);
    }
    const listener = await startOpen(name, cfg?.sirius.namespace ?? DEFAULTS.application.namespace, kubeClient(kc), apiServerForwarder(kc), port, io);
    await interrupted();
    await listener.close();
    line(io.stderr, "Stopped forwarding.");
    return EXIT.ok;
}

/**
 * Resolves the interface to a ready pod, listens locally and prints the URL. Exported for tests, which pass their
 * own forwarder.
 *
 * @throws CliError: 1 when the interface is not there, 7 when the cluster cannot be reached.
 */
export async function startOpen(name: string, applicationNamespace: string, client: KubeClient, forward: Forwarder, port: number, io: CliIo): Promise<Listener> {
    const t = OPEN_TARGETS[name]!;
    const namespace = t.namespace(applicationNamespace);
    let resolved;
    try {
        resolved = await resolveForward(client, namespace, t.service, t.port);
    } catch (e) {
        if (e instanceof OpenError) throw new CliError(`${t.title}: ${e.message}`, EXIT.failed);
        if (e instanceof KubeApiError && (e.status === 0 || e.status === 401)) throw new CliError(`${e.message}; run mara doctor for the details`, EXIT.unreachable);
        throw e;
    }
    let listener: Listener;
    try {
        listener = await listen(resolved, forward, port, (e) => line(io.stderr, `mara: a connection to ${namespace}/${resolved.pod} failed: ${e.message}`));
    } catch (e) {
        throw new CliError(`cannot listen on 127.0.0.1:${port}: ${(e as Error).message}; choose another with --port`, EXIT.usage);
    }
    line(io.stdout, `${t.title}: http://127.0.0.1:${listener.port}${t.path}`);
    line(io.stderr, `Forwarding to ${namespace}/${resolved.pod} port ${resolved.containerPort} (Service ${t.service}:${t.port}); Ctrl+C stops.`);
    if (t.login) line(io.stderr, `Log in as ${t.login}`);
    return listener;
}

function interrupted(): Promise<void> {
    return new Promise((resolve) => {
        const done = () => {
            process.off("SIGINT", done);
            process.off("SIGTERM", done);
            resolve();
        };
        process.once("SIGINT", done);
        process.once("SIGTERM", done);
    });
}
