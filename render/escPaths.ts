/**
 * Where a render's Secrets live in a Pulumi ESC environment, and which environment: the names the External Secrets
 * Operator's Pulumi provider reads (`--secret-store-provider pulumi`, docs/gitops.md#pulumi-esc).
 *
 * The provider reads one value per ExternalSecret key: `remoteRef.key` is a **Pulumi property path** into the opened
 * environment's values, and `property` is not read (external-secrets providers/v1/pulumi/pulumi.go, `GetSecret`, passes
 * `ref.Key` alone to `ReadEnvironmentProperty`; ESO's Pulumi provider page: "key is not following the JSON Path syntax,
 * but rather the Pulumi path syntax"). So each Secret is an object at `<prefix>["<namespace>"]["<secret>"]` whose
 * properties are its keys, and each key is read at `…["<key>"]`. Quoted segments, because a Secret's name and keys may
 * hold dots (`jwtRS256.key`), which a plain segment would split; Kubernetes names and keys never hold `"` or `\`, so
 * no segment needs escaping.
 */
import { shortenValue } from "../config/redact";

/** The default prefix: the top-level key of the environment's values that holds the platform's Secrets. */
export const ESC_DEFAULT_PREFIX = "mara";

/**
 * A property name of Pulumi's path grammar: `[a-zA-Z_$] { [a-zA-Z0-9_$] }` (pulumi/pulumi
 * sdk/go/common/resource/properties_path.go, the grammar above `ParsePropertyPath`).
 */
const PROPERTY_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** What a prefix may be, in the words messages use after "Allowed:". */
export const ESC_PREFIX_ALLOWED =
    "a Pulumi property path of plain names joined by '.', each a letter, '_' or '$' followed by letters, digits, '_' or '$' (such as mara or platform.mara), not starting with imports";

/** One segment of a property path: a name, or an array index. */
export type PropertySegment = string | number;

/**
 * Reads a property path as Pulumi does: a model of `ParsePropertyPath` (pulumi/pulumi
 * sdk/go/common/resource/properties_path.go), which the `esc` CLI uses for `esc env set <env> <path>`
 * (pulumi/esc cmd/esc/cli/env_set.go). Like the original it is loose: a plain segment runs to the next `.` or `[`.
 * Throws with Pulumi's own messages where it fails.
 */
export function parsePropertyPath(path: string): PropertySegment[] {
    const out: PropertySegment[] = [];
    let rest = path;
    while (rest.length > 0) {
        if (rest[0] === ".") {
            rest = rest.slice(1);
        } else if (rest[0] === "[") {
            if (rest[1] === '"') {
                let key = "";
                let i = 2;
                for (;;) {
                    if (i >= rest.length) throw new Error("missing closing quote in property name");
                    if (rest[i] === '"') {
                        i++;
                        break;
                    }
                    if (rest[i] === "\\" && rest[i + 1] === '"') {
                        key += '"';
                        i += 2;
                    } else {
                        key += rest[i];
                        i++;
                    }
                }
                if (rest[i] !== "]") throw new Error("missing closing bracket in property access");
                out.push(key);
                rest = rest.slice(i + 1);
            } else {
                const close = rest.indexOf("]");
                if (close < 0) throw new Error("missing closing bracket in array index");
                const segment = rest.slice(1, close);
                if (segment === "*") out.push("*");
                else if (/^[+-]?\d+$/.test(segment)) out.push(Number(segment));
                else throw new Error("invalid array index");
                rest = rest.slice(close + 1);
            }
        } else {
            let i = 0;
            while (i < rest.length && rest[i] !== "." && rest[i] !== "[") i++;
            out.push(rest.slice(0, i));
            rest = rest.slice(i);
        }
    }
    return out;
}

/**
 * Why `prefix` cannot hold the platform's Secrets, or undefined: it must be names of Pulumi's grammar joined by dots,
 * so it reads back as exactly those names. Its first name must not be `imports`: `esc env set` writes a path that
 * starts with `imports` into the environment's imports instead of its values (env_set.go), so the commands the docs
 * give would write somewhere the provider never reads.
 */
export function escPrefixProblem(prefix: string): string | undefined {
    if (prefix === "") return "is empty";
    const names = prefix.split(".");
    const bad = names.find((n) => !PROPERTY_NAME.test(n));
    if (bad !== undefined) return bad === "" ? "has an empty name (a leading, trailing or doubled '.')" : `has the name ${JSON.stringify(shortenValue(bad))}, which Pulumi's property path grammar does not read as one plain name`;
    if (names[0] === "imports") return "starts with imports, which esc env set writes to the environment's imports, not its values";
    return undefined;
}

/** A quoted segment: `["name"]`. Kubernetes names and data keys hold no `"` or `\` (checked by the caller's names). */
const quoted = (name: string) => `["${name}"]`;

/** The property path of the object that holds one Secret: `<prefix>["<namespace>"]["<secret>"]`. */
export const escEntryPath = (prefix: string, namespace: string, secret: string) => `${prefix}${quoted(namespace)}${quoted(secret)}`;

/** The property path of one key of a Secret: `<prefix>["<namespace>"]["<secret>"]["<key>"]`. */
export const escKeyPath = (prefix: string, namespace: string, secret: string, key: string) => `${escEntryPath(prefix, namespace, secret)}${quoted(key)}`;

/** A Pulumi ESC environment, as `esc` names it: `<organization>/<project>/<environment>`. */
export interface EscEnvironment {
    /** Pulumi Cloud organization (the store's `organization`). */
    organization: string;
    /** ESC project the environment belongs to (the store's `project`). */
    project: string;
    /** Environment name (the store's `environment`). */
    environment: string;
}

/**
 * Pulumi documents environment names as "may only contain alphanumeric characters, hyphens, underscores, and periods"
 * (pulumi.com/docs/esc/environments/working-with-environments); organizations and projects are held to the same
 * characters here. A name of dots alone is refused: the provider puts each name into a path of the ESC API
 * (`/environments/{org}/{project}/{env}/open`, esc-sdk's `OpenEnvironment`), where `.` or `..` would name another one.
 */
const ESC_NAME = /^[A-Za-z0-9._-]+$/;

/** What `--esc-environment` may be, in the words messages use after "Allowed:". */
export const ESC_ENVIRONMENT_ALLOWED =
    "<organization>/<project>/<environment>, as esc env init names it, each name of letters, digits, '-', '_' and '.' (not '.' or '..' alone), without a version";

/** The environment `ref` names, or why it names none. */
export function parseEscEnvironment(ref: string): { ok: true; value: EscEnvironment } | { ok: false; reason: string } {
    const parts = ref.split("/");
    if (parts.length !== 3) {
        return {
            ok: false,
            reason:
                parts.length < 3
                    ? "names no project: the External Secrets Operator's store needs the organization, the project and the environment (esc's <org>/<env> means the project \"default\": write <org>/default/<env>)"
                    : `has ${parts.length} parts separated by '/', not three`,
        };
    }
    const roles = ["organization", "project", "environment"] as const;
    for (const [i, name] of parts.entries()) {
        const role = roles[i]!;
        if (name === "") return { ok: false, reason: `has an empty ${role}` };
        if (role === "environment" && /[@:]/.test(name)) return { ok: false, reason: `names a version of the environment (${JSON.stringify(shortenValue(name))}): the store opens the environment's latest version, and takes no version` };
        if (!ESC_NAME.test(name)) return { ok: false, reason: `has the ${role} ${JSON.stringify(shortenValue(name))}, with characters a Pulumi ESC name does not hold` };
        if (/^\.+$/.test(name)) return { ok: false, reason: `has the ${role} "${name}", which would name another path of the ESC API` };
    }
    return { ok: true, value: { organization: parts[0]!, project: parts[1]!, environment: parts[2]! } };
}
