/**
 * The ownership guard's reads of a cluster: the metadata of named objects and of Helm's release records, through the
 * kubeconfig the Kubernetes provider uses, authenticated as `@kubernetes/client-node` does it for kubectl's kubeconfig
 * (bearer token, client certificate, exec plugin, proxy). Every read asks for metadata only (`PartialObjectMetadata`,
 * so no Secret's data is ever transferred), and the whole check has one total deadline and a byte cap per answer: a
 * server that answers a byte at a time, or without end, fails the check in bounded time with a message of its own.
 *
 * Runs in Pulumi's dynamic-provider host (a plain Node.js process), so it imports only Node's modules and installed
 * packages, and loads the Kubernetes client with `require` when it runs.
 */
import type * as https from "https";
import type { ObservedMeta } from "./rule";

/**
 * Node's modules, loaded when used: Pulumi's closure serializer writes a captured module import as the module's
 * contents, which it cannot do for Node's own modules under every loader (a test runner's included), while a
 * `require` inside the function is written as it is.
 */
function node() {
    /* eslint-disable @typescript-eslint/no-require-imports */
    return {
        fs: require("fs") as typeof import("fs"),
        http: require("http") as typeof import("http"),
        https: require("https") as typeof import("https"),
        os: require("os") as typeof import("os"),
        path: require("path") as typeof import("path"),
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
}

/** Which cluster to read, as the Kubernetes provider was told: its kubeconfig (text or a file's path), context and cluster. */
export interface ClusterAccess {
    /** The provider's `kubeconfig`: the document, or the path of a file holding it; undefined: `$KUBECONFIG` or `~/.kube/config`, as the provider reads it. */
    readonly kubeconfig?: string;
    /** The provider's `context`; default the kubeconfig's current context. */
    readonly context?: string;
    /** The provider's `cluster`: a cluster of the kubeconfig to use instead of the context's. */
    readonly cluster?: string;
}

/** The bounds of one check. */
export interface ReadBounds {
    /** The whole check, every read and the exec credential plugin included, in milliseconds. */
    readonly totalMs: number;
    /** Bytes one answer may have. */
    readonly answerBytes: number;
    /** Reads at a time. */
    readonly concurrency: number;
}

/** One minute for the whole check; 1 MiB per answer (metadata of one object, or of one release's records); four reads at a time. */
export const READ_BOUNDS: ReadBounds = { totalMs: 60_000, answerBytes: 1024 * 1024, concurrency: 4 };

/** The name of the errors of a read that failed: the cluster did not answer, refused, or answered something else than asked. */
const READ_ERROR = "ClusterReadError";

/**
 * The error of a read that failed. A plain Error with a name of its own rather than a subclass: Pulumi's closure
 * serializer rewrites classes, and an Error subclass rewritten loses its message in the dynamic-provider host.
 */
export function clusterReadError(message: string): Error {
    const e = new Error(message);
    e.name = READ_ERROR;
    return e;
}

/** Whether `e` is the error of a read that failed ({@link clusterReadError}). */
export function isClusterReadError(e: unknown): e is Error {
    return e instanceof Error && e.name === READ_ERROR;
}

/** What the check reads. */
export interface MetadataReader {
    /** The API server's address (without credentials), for messages. */
    readonly server: string;
    /** The metadata of the object at `path`; undefined when there is none (404). */
    get(path: string): Promise<ObservedMeta | undefined>;
    /** The metadata of every item of the list at `path` (following `continue`). */
    list(path: string): Promise<ObservedMeta[]>;
}

const ACCEPT_OBJECT = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
const ACCEPT_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
/** Pages of a list followed at most (each a bounded answer): a release keeps at most a few dozen records. */
const MAX_PAGES = 10;

/**
 * The kubeconfig document the provider's `kubeconfig` setting names, read as the provider reads it: `~` expanded, then
 * the file at that path if there is one, else the text itself (pulumi-kubernetes provider/pkg/provider/util.go,
 * `parseKubeconfigString`). Undefined for the ambient kubeconfig.
 */
export function kubeconfigText(setting: string | undefined): string | undefined {
    if (setting === undefined || setting === "") return undefined;
    const { fs, os, path } = node();
    const expanded = setting === "~" ? os.homedir() : setting.startsWith("~/") ? path.join(os.homedir(), setting.slice(2)) : setting;
    // A document is never a file name; looking one up as a path would only fail (or, on a newline, be refused).
    if (/[\n{]/.test(expanded) || expanded.length > 4096) return setting;
    let isFile = false;
    try {
        isFile = fs.statSync(expanded).isFile();
    } catch {
        return setting;
    }
    if (!isFile) return setting;
    try {
        return fs.readFileSync(expanded, "utf8");
    } catch (e) {
        throw clusterReadError(`cannot read the Kubernetes provider's kubeconfig ${expanded}: ${(e as NodeJS.ErrnoException).code ?? "unreadable"}`);
    }
}

/** The server's address without any user information, for messages. */
function shown(server: string): string {
    return server.replace(/\/\/[^/@]*@/, "//");
}

/** One GET's answer: its status and its body parsed as JSON (or its first bytes, for an error that is not JSON). */
interface Answer {
    readonly status: number;
    readonly body: unknown;
}

/** The error of a read that outlived the whole check's deadline. */
function lateError(server: string, bounds: ReadBounds): Error {
    return clusterReadError(`${shown(server)} did not finish answering within ${bounds.totalMs / 1000} s (the whole check's deadline)`);
}

/** One GET of `url`, within `leftMs` and {@link ReadBounds.answerBytes}. */
function httpGet(server: string, url: URL, opts: https.RequestOptions, leftMs: number, bounds: ReadBounds): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
        const transport = url.protocol === "http:" ? node().http : node().https;
        let done = false;
        let timer: NodeJS.Timeout | undefined;
        let req: ReturnType<typeof transport.request> | undefined;
        const fail = (e: Error) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            req?.destroy();
            reject(e);
        };
        req = transport.request(url, opts, (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on("data", (c: Buffer) => {
                size += c.length;
                if (size > bounds.answerBytes) fail(clusterReadError(`${shown(server)} answered GET ${url.pathname} with more than ${bounds.answerBytes} bytes`));
                else chunks.push(c);
            });
            res.on("error", (e) => fail(clusterReadError(`${shown(server)} broke off its answer to GET ${url.pathname}: ${e.message}`)));
            res.on("end", () => {
                if (done) return;
                done = true;
                clearTimeout(timer);
                const status = res.statusCode ?? 0;
                const text = Buffer.concat(chunks).toString("utf8");
                try {
                    resolve({ status, body: text ? JSON.parse(text) : undefined });
                } catch {
                    if (status >= 400) resolve({ status, body: text.slice(0, 200) });
                    else reject(clusterReadError(`${shown(server)} answered GET ${url.pathname} with something that is not JSON (HTTP ${status}, ${res.headers["content-type"] ?? "no content type"})`));
                }
            });
        });
        timer = setTimeout(() => fail(lateError(server, bounds)), leftMs);
        req.on("error", (e: NodeJS.ErrnoException) => fail(clusterReadError(`cannot reach ${shown(server)}: ${e.code ?? e.message}${e.code && e.message && !e.message.includes(e.code) ? ` (${e.message})` : ""}`)));
        req.end();
    });
}

/** The error of an answer other than 200 or 404. */
function refusalError(server: string, apiPath: string, a: Answer): Error {
    const said = typeof a.body === "string" ? a.body : ((a.body as { message?: unknown } | undefined)?.message ?? "");
    const what =
        a.status === 401
            ? "refused the kubeconfig's credentials"
            : a.status === 403
              ? "does not let the kubeconfig's user read it"
              : a.status >= 300 && a.status < 400
                ? "answered with a redirect, which the check does not follow"
                : `answered HTTP ${a.status}`;
    return clusterReadError(`${shown(server)} ${what} (GET ${apiPath.split("?")[0]})${typeof said === "string" && said ? `: ${said.slice(0, 200)}` : ""}`);
}

/** Whether a parsed answer is a Kubernetes object (it has metadata). */
function hasMetadata(v: unknown): v is { metadata: ObservedMeta } {
    return !!v && typeof v === "object" && !!(v as { metadata?: unknown }).metadata && typeof (v as { metadata?: unknown }).metadata === "object";
}

/** A loaded kubeconfig with the context (and cluster) the provider uses selected, and the server it reaches. */
function loadKubeconfig(access: ClusterAccess): { kc: import("@kubernetes/client-node").KubeConfig; server: string } {
    // require, not import(): this runs in Pulumi's dynamic-provider host, whose evaluated code cannot import().
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const k8s = require("@kubernetes/client-node") as typeof import("@kubernetes/client-node");
    const kc = new k8s.KubeConfig();
    try {
        const text = kubeconfigText(access.kubeconfig);
        // Without a kubeconfig the provider reads $KUBECONFIG's files or ~/.kube/config, as client-go's loading rules do.
        if (text === undefined) kc.loadFromDefault();
        else kc.loadFromString(text);
    } catch (e) {
        if (isClusterReadError(e)) throw e;
        throw clusterReadError("the Kubernetes provider's kubeconfig is not a kubeconfig document (YAML or JSON with clusters, users and contexts)");
    }
    if (access.context) {
        if (!kc.getContextObject(access.context)) throw clusterReadError(`the kubeconfig has no context "${access.context}"`);
        kc.setCurrentContext(access.context);
    }
    if (access.cluster) {
        const current = kc.getContextObject(kc.getCurrentContext());
        if (!kc.getCluster(access.cluster) || !current) throw clusterReadError(`the kubeconfig has no cluster "${access.cluster}"`);
        kc.contexts = kc.contexts.map((c) => (c.name === current.name ? { ...c, cluster: access.cluster! } : c));
    }
    const server = kc.getCurrentCluster()?.server?.replace(/\/+$/, "");
    if (!server) throw clusterReadError(`the kubeconfig's context "${kc.getCurrentContext()}" names no cluster with a server address`);
    return { kc, server };
}

/** The API server the provider's kubeconfig reaches (without credentials); throws the error of {@link clusterReadError} when it names none. */
export function serverOf(access: ClusterAccess): string {
    return shown(loadKubeconfig(access).server);
}

/** Reads that run at most `limit` at a time. */
class Slots {
    private running = 0;
    private readonly waiting: (() => void)[] = [];
    constructor(private readonly limit: number) {}
    async run<T>(fn: () => Promise<T>): Promise<T> {
        while (this.running >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
        this.running++;
        try {
            return await fn();
        } finally {
            this.running--;
            this.waiting.shift()?.();
        }
    }
}

/** A reader of one cluster within one deadline. */
class BoundedReader implements MetadataReader {
    readonly server: string;
    private readonly deadline: number;
    private readonly slots: Slots;
    constructor(
        private readonly kc: import("@kubernetes/client-node").KubeConfig,
        private readonly url: string,
        private readonly bounds: ReadBounds,
    ) {
        this.server = shown(url);
        this.deadline = Date.now() + bounds.totalMs;
        this.slots = new Slots(bounds.concurrency);
    }

    private call(apiPath: string, accept: string): Promise<Answer> {
        return this.slots.run(async () => {
            const left = this.deadline - Date.now();
            if (left <= 0) throw lateError(this.url, this.bounds);
            const opts: https.RequestOptions = { method: "GET", headers: { accept } };
            // The credentials (an exec plugin runs here) within the same deadline.
            let timer: NodeJS.Timeout | undefined;
            try {
                await Promise.race([this.kc.applyToHTTPSOptions(opts), new Promise((_, reject) => (timer = setTimeout(() => reject(lateError(this.url, this.bounds)), left)))]);
            } catch (e) {
                if (isClusterReadError(e)) throw e;
                throw clusterReadError(`the kubeconfig's credentials could not be used: ${String((e as Error)?.message ?? e).split("\n")[0]}`);
            } finally {
                clearTimeout(timer);
            }
            return httpGet(this.url, new URL(this.url + apiPath), opts, Math.max(1, this.deadline - Date.now()), this.bounds);
        });
    }

    async get(apiPath: string): Promise<ObservedMeta | undefined> {
        const a = await this.call(apiPath, ACCEPT_OBJECT);
        if (a.status === 404) return undefined;
        if (a.status !== 200) throw refusalError(this.url, apiPath, a);
        if (!hasMetadata(a.body)) throw clusterReadError(`${this.server} answered GET ${apiPath} with JSON that is not a Kubernetes object`);
        return a.body.metadata;
    }

    async list(apiPath: string): Promise<ObservedMeta[]> {
        const items: ObservedMeta[] = [];
        let token: string | undefined;
        for (let page = 0; page < MAX_PAGES; page++) {
            const sep = apiPath.includes("?") ? "&" : "?";
            const a = await this.call(`${apiPath}${sep}limit=100${token ? `&continue=${encodeURIComponent(token)}` : ""}`, ACCEPT_LIST);
            if (a.status === 404) return items;
            if (a.status !== 200) throw refusalError(this.url, apiPath, a);
            const list = a.body as { kind?: unknown; items?: unknown; metadata?: { continue?: unknown } } | undefined;
            // An empty PartialObjectMetadataList comes without items (the API server's encoding omits a nil list).
            if (list && typeof list.kind === "string" && list.kind.endsWith("List") && (list.items === undefined || list.items === null)) return items;
            if (!list || !Array.isArray(list.items)) throw clusterReadError(`${this.server} answered GET ${apiPath.split("?")[0]} with JSON that is not a Kubernetes list`);
            for (const item of list.items) if (hasMetadata(item)) items.push(item.metadata);
            token = typeof list.metadata?.continue === "string" && list.metadata.continue ? list.metadata.continue : undefined;
            if (!token) return items;
        }
        throw clusterReadError(`${this.server} answered GET ${apiPath.split("?")[0]} with more than ${MAX_PAGES} pages`);
    }
}

/**
 * A reader of the cluster `access` names, bounded by `bounds`; the total deadline starts now.
 *
 * @throws the error of {@link clusterReadError} when the kubeconfig cannot be read or names no cluster.
 */
export function kubeconfigReader(access: ClusterAccess, bounds: ReadBounds = READ_BOUNDS): MetadataReader {
    const { kc, server } = loadKubeconfig(access);
    return new BoundedReader(kc, server, bounds);
}
