/**
 * The kubeconfig of an existing cluster, checked as the Kubernetes provider would use it: a path must name a
 * readable file (not a directory, not empty), the text must be a kubeconfig (a YAML or JSON mapping with
 * contexts and clusters), and the context to use (the one configured, else the file's current-context) must
 * exist and name a cluster with a server. `mara validate`, `mara plan` and the program all call this, with the
 * path resolved against the project directory (localPaths.ts), so they give the same verdict on the same file.
 *
 * An inline kubeconfig is a credential: no message quotes any part of it (not even a context name).
 */
import { LineCounter, parseDocument } from "yaml";
import { inspectLocalPath, LocalPath, resolveLocalPath, shellWord, shownPath } from "./localPaths";
import { isInlineKubeconfig } from "./redact";

/** Where and how local files are read. */
export interface LocalFiles {
    /** Directory relative paths resolve against (the project directory). */
    readonly baseDir: string;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly inspect?: (path: string) => LocalPath;
}

/** What is wrong, and with which setting: the kubeconfig itself, or the context chosen in it. */
export interface KubeconfigProblem {
    readonly setting: "kubeconfig" | "context";
    readonly problem: string;
    readonly allowed: string;
    readonly fix: string;
}

/** A usable kubeconfig: its text, and the file it came from (when it is a path). */
export interface KubeconfigContents {
    readonly text: string;
    readonly file?: string;
    /** The kinds of credential its users carry, in words ("a bearer token"); never a value or a name. */
    readonly credentials: readonly string[];
}

/** Where kubectl looks when KUBECONFIG is not set. */
const DEFAULT_KUBECONFIG = "~/.kube/config";

const ALLOWED_FILE = "the path of a kubeconfig file (~ is your home directory, a relative path is relative to the project directory where Pulumi.yaml is), or the file's contents";

/**
 * Reads and checks a kubeconfig setting (a path or the contents) and the context to use in it.
 *
 * @param keys - how messages name the two settings (the keys the user set).
 */
export function checkKubeconfig(
    setting: string,
    context: string | undefined,
    files: LocalFiles,
    keys: { readonly kubeconfig: string; readonly context: string },
): { ok: true; value: KubeconfigContents } | { ok: false; problem: KubeconfigProblem } {
    const inline = isInlineKubeconfig(setting);
    const bad = (problem: string, fix: string, allowed = ALLOWED_FILE): { ok: false; problem: KubeconfigProblem } => ({ ok: false, problem: { setting: "kubeconfig", problem, allowed, fix } });
    let text = setting;
    let file: string | undefined;
    const what = inline ? "the kubeconfig given inline" : "";
    if (!inline) {
        file = resolveLocalPath(setting.trim(), files.baseDir, files.env);
        const found = (files.inspect ?? inspectLocalPath)(file);
        const where = file === setting.trim() ? "" : ` (resolved to ${shownPath(file)})`;
        // ~/.kube/config is the example unless it is the very file found wanting.
        const example = file === resolveLocalPath(DEFAULT_KUBECONFIG, files.baseDir, files.env) ? "<path-of-your-kubeconfig>" : DEFAULT_KUBECONFIG;
        const fix = `point ${keys.kubeconfig} at your cluster's kubeconfig file, e.g. pulumi config set ${keys.kubeconfig} ${example}`;
        if (found.kind === "missing") {
            if (found.link !== undefined) return bad(`names a symbolic link${where} to ${shownPath(found.link)}, which does not exist`, `point the link at your kubeconfig (ls -l ${shellWord(file)}), or ${fix}`);
            return bad(`names a file that does not exist${where}`, `check the path with: ls -l ${shellWord(file)}; or ${fix}`);
        }
        if (found.kind === "directory") return bad(`names a directory${where}, not a kubeconfig file`, `${fix} (a file, such as ~/.kube/config, not the directory ~/.kube)`);
        if (found.kind === "unreadable") return bad(`names a path${where} that ${found.reason}`, `${found.fix ?? "make it readable"}, or ${fix}`);
        text = found.text;
    }
    const subject = inline ? what : "names a file that";
    const notKubeconfig = (why: string) =>
        bad(
            inline ? `is not a kubeconfig: ${why}` : `${subject} is not a kubeconfig: ${why}`,
            inline ? `set ${keys.kubeconfig} to the whole kubeconfig (kubectl config view --raw --minify), or to its path` : `point ${keys.kubeconfig} at the kubeconfig itself (kubectl config view --raw shows what it should contain)`,
            "a kubeconfig (apiVersion: v1, kind: Config, with clusters, users and contexts), as a path or as contents",
        );
    if (text.trim() === "") return inline ? notKubeconfig("it is empty") : bad(`names a file that is empty`, `point ${keys.kubeconfig} at a kubeconfig with your cluster in it (an empty file has no cluster to connect to)`);

    // Errors are read from the document, not thrown: with errors silenced, yaml would hand back whatever it could make of
    // a broken file (an unclosed list as an empty one), which kubectl (sigs.k8s.io/yaml) refuses.
    // prettyErrors off: its messages quote the text, and an inline kubeconfig is a credential; the position comes from
    // a line counter instead.
    const lines = new LineCounter();
    const parsed = parseDocument(text, { prettyErrors: false, logLevel: "silent", lineCounter: lines });
    const error = parsed.errors[0];
    if (error) {
        const pos = lines.linePos(error.pos[0]);
        return notKubeconfig(`it is not valid YAML${pos ? ` (line ${pos.line}, column ${pos.col})` : ""}`);
    }
    const doc: unknown = parsed.toJS();
    if (inline && typeof doc === "string" && !doc.includes(":")) {
        // A path with a line break in its name reads as contents (isInlineKubeconfig): say so, rather than only "not a mapping".
        return notKubeconfig("it is one piece of text, not a mapping of settings; a value with a line break is read as the kubeconfig's contents, so if it is meant as a path, rename the file to a name without a line break");
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return notKubeconfig("it is not a mapping of settings");
    const config = doc as Record<string, unknown>;
    if (config.kind !== undefined && config.kind !== "Config") return notKubeconfig("its kind is not Config");
    const contexts = namedEntries(config.contexts, "context");
    const clusters = namedEntries(config.clusters, "cluster");
    if (contexts.length === 0) return notKubeconfig("it defines no contexts");
    if (clusters.length === 0) return notKubeconfig("it defines no clusters");

    // Context names are shown only for files: an inline kubeconfig is a credential, every part of it.
    const names = inline ? "" : `: ${contexts.map((c) => c.name).join(", ")}`;
    const chosen = context ?? (typeof config["current-context"] === "string" && config["current-context"] !== "" ? config["current-context"] : undefined);
    if (chosen === undefined) {
        return {
            ok: false,
            problem: {
                setting: "kubeconfig",
                problem: `${inline ? "has" : "names a kubeconfig with"} no current-context, and ${keys.context} is not set`,
                allowed: `a kubeconfig with a current-context, or ${keys.context} set to one of its contexts${names}`,
                fix: `pulumi config set ${keys.context} <context>${inline ? "" : ` (one of${names.slice(1)})`}`,
            },
        };
    }
    const ctx = contexts.find((c) => c.name === chosen);
    if (!ctx) {
        const configured = context !== undefined;
        return {
            ok: false,
            problem: {
                setting: configured ? "context" : "kubeconfig",
                problem: configured
                    ? `is not a context of ${inline ? "the inline kubeconfig" : file}`
                    : `${inline ? "has" : "names a kubeconfig whose"} current-context, which is not one of its contexts`,
                allowed: `a context the kubeconfig defines${names}`,
                fix: `pulumi config set ${keys.context} <context>${inline ? "" : ` (one of${names.slice(1)})`}`,
            },
        };
    }
    const clusterName = (ctx.body as { cluster?: unknown } | undefined)?.cluster;
    const cluster = clusters.find((c) => c.name === clusterName);
    const server = (cluster?.body as { server?: unknown } | undefined)?.server;
    if (typeof server !== "string" || server === "") {
        return notKubeconfig(
            `its context ${inline ? "" : `"${chosen}" `}${cluster ? "names a cluster without a server address" : "names a cluster the kubeconfig does not define"}`,
        );
    }
    return { ok: true, value: { text, file, credentials: credentialsIn(config.users) } };
}

/**
 * What the kubeconfig's users carry that lets anyone holding the text act as them, by the fields of client-go's
 * AuthInfo (k8s.io/client-go `tools/clientcmd/api/v1/types.go`, whose datapolicy tags mark `token` and
 * `client-key-data` as secrets): a bearer token, a client key, a basic-auth password, an auth-provider's tokens
 * or client secret, and an exec plugin's environment variables whose names say they hold one. Paths to such files
 * (`tokenFile`, `client-key`) are not credentials in the text.
 */
function credentialsIn(users: unknown): string[] {
    const found = new Set<string>();
    for (const { body } of namedEntries(users, "user")) {
        if (typeof body !== "object" || body === null) continue;
        const u = body as Record<string, unknown>;
        const present = (v: unknown) => typeof v === "string" && v.trim() !== "";
        if (present(u.token)) found.add("a bearer token");
        if (present(u["client-key-data"])) found.add("a client key");
        if (present(u.password)) found.add("a password");
        const providerConfig = (u["auth-provider"] as { config?: unknown } | undefined)?.config;
        if (providerConfig && typeof providerConfig === "object" && Object.entries(providerConfig).some(([k, v]) => /token|secret/i.test(k) && present(v))) {
            found.add("an auth-provider token");
        }
        const env = (u.exec as { env?: unknown } | undefined)?.env;
        if (Array.isArray(env) && env.some((e) => typeof (e as { name?: unknown })?.name === "string" && /token|secret|password|key/i.test((e as { name: string }).name) && present((e as { value?: unknown })?.value))) {
            found.add("a credential in an exec plugin's environment");
        }
    }
    return [...found];
}

/** The `name`d entries of a kubeconfig list, with the body under `key`. */
function namedEntries(list: unknown, key: string): { name: string; body: unknown }[] {
    if (!Array.isArray(list)) return [];
    return list
        .filter((e): e is Record<string, unknown> => typeof e === "object" && e !== null && typeof (e as { name?: unknown }).name === "string")
        .map((e) => ({ name: e.name as string, body: e[key] }));
}
