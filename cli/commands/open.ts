/**
 * `mara open <name>`: reaches one of the platform's web interfaces without DNS or an ingress address, by a
 * port-forward through the stack's kubeconfig (MARA's port-forward script), and prints the local URL. It runs
 * until interrupted (Ctrl+C).
 */
import type { MaraConfig } from "../../config";
import type { CommandContext } from "../kernel/command";
import { isKubeApiError, kubeClient, KubeClient, kubeConfigFrom, KubeContextClient } from "../doctor/kubeClient";
import { DoctorTarget, targetOfConfig, targetOfFile } from "../doctor/target";
import { CliError, CliIo, EXIT, line } from "../kernel/io";
import { checkConfig } from "../kernel/report";
import { locateStackFile, readStackFile } from "../stack/stackSource";
import { apiServerForwarder, Forwarder, listen, Listener } from "../open/forward";
import { OpenError, resolveForward } from "../open/resolve";
import { OPEN_TARGET_NAMES, OPEN_TARGETS } from "../open/targets";
import { DEFAULTS } from "../../contracts/defaults";

/** The most finding the interface's pod may take (the credential plugin, the Service, its pods); forwarding then runs until interrupted. */
export const OPEN_BOUND_MS = 30_000;

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
 * @returns 0 after an interrupt; 1 when the interface is not there (not deployed, no ready pod) or the API server
 *   answers with an error; 2 for a wrong command line; 7 when the cluster cannot be reached or refuses the credentials.
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
        kc = kubeConfigFrom(target.kubeconfig, target.context, target.baseDir);
    } catch (e) {
        throw new CliError(`${target.source}: ${(e as Error).message}`, EXIT.usage);
    }
    // Finding the pod is bounded as a whole; forwarding then runs until interrupted, each connection opened within its own bound.
    const client = kubeClient(kc, { deadline: Date.now() + OPEN_BOUND_MS, deadlineName: `mara open's ${OPEN_BOUND_MS / 1000} s bound`, env: io.env });
    const forwarder = apiServerForwarder(renewing(client, () => kubeClient(kc, { env: io.env })));
    const listener = await startOpen(name, cfg?.application.namespace ?? DEFAULTS.application.namespace, client, forwarder, port, io);
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
        if (isKubeApiError(e)) {
            // No answer, or no way to ask (TLS settings, credentials), or the credentials refused: the cluster cannot be reached.
            const unreachable = e.status === 401 || (e.kind !== "http" && e.kind !== "answer");
            throw new CliError(`${e.message}${e.fix ? `; ${e.fix}` : ""}${unreachable ? "; mara doctor tells more" : ""}`, unreachable ? EXIT.unreachable : EXIT.failed);
        }
        // A field of the wrong type deep in an answer (a Service whose ports are not a list): not what an API server sends.
        if (e instanceof TypeError) throw new CliError(`${t.title}: an answer of the API server at ${client.server} is not shaped as Kubernetes objects are; is the kubeconfig's server the cluster's API server?`, EXIT.failed);
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

/** Credentials resolved again this long before an exec plugin's credential runs out. */
const RENEW_BEFORE_MS = 60_000;

/** The client to forward with: `first`, until the credential its exec plugin gave is about to run out, then a new one. */
function renewing(first: KubeContextClient, make: () => KubeContextClient): () => KubeContextClient {
    let client = first;
    let expires: Date | undefined;
    const watch = (c: KubeContextClient) =>
        void c.connection().then(
            (conn) => (expires = conn.credentials.expires),
            () => undefined,
        );
    watch(client);
    return () => {
        if (expires && expires.getTime() - Date.now() < RENEW_BEFORE_MS) {
            client = make();
            expires = undefined;
            watch(client);
        }
        return client;
    };
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
