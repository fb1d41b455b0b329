/**
 * The value types of the GitOps keys (config/keys.ts): the repository, revision and folder Argo CD reads the render
 * from, by the rules git and Argo CD apply (contracts/gitSource.ts names each upstream source), and the credential
 * Pulumi writes into Argo CD's repository Secret. A credential inside the repository URL is not refused here but by
 * config/gitops.ts, whose message says where the credential goes instead.
 */
import {
    GIT_REPO_URL_ALLOWED,
    GIT_REVISION_ALLOWED,
    gitRepoUrlProblem,
    gitRevisionProblem,
    normalRepoFolder,
    REPO_FOLDER_ALLOWED,
    repoFolderProblem,
} from "../contracts/gitSource";
import { kubernetesNameAllowed, kubernetesNameProblem } from "../contracts/names";
import type { ParseResult, ValueType } from "./valueTypes";

const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const fail = <T>(reason: string): ParseResult<T> => ({ ok: false, reason });

/** A type from a rule that returns why a value is wrong, and an optional normal form. */
function ruled(allowed: string, problem: (v: string) => string | undefined, normal: (v: string) => string = (v) => v): ValueType<string> {
    return {
        pulumiType: "string",
        allowed,
        parse(raw) {
            const value = raw.trim();
            const why = problem(value);
            return why ? fail(why) : ok(normal(value));
        },
        render: (v) => v,
    };
}

/** A Git repository URL Argo CD can clone (https://, http://, ssh://user@host/…, user@host:path). */
export const gitRepoUrl = () => ruled(GIT_REPO_URL_ALLOWED, gitRepoUrlProblem);

/** A branch, tag or commit git can fetch. */
export const gitRevision = () => ruled(GIT_REVISION_ALLOWED, gitRevisionProblem);

/** A folder of the repository, relative to its root; a trailing slash is dropped. */
export const repoFolder = () => ruled(REPO_FOLDER_ALLOWED, repoFolderProblem, normalRepoFolder);

/**
 * A fleet's name: the value of the cluster Secret's `mara.nginx.com/fleet` label, which the fleet's ApplicationSet
 * selects clusters by, and part of the ApplicationSet's name (`mara-<fleet>`). A DNS label (apimachinery
 * `IsDNS1123Label`), which is also a label value (`IsValidLabelValue`) and keeps the name valid; lower case only, so two
 * spellings of one fleet cannot select different clusters.
 */
export const fleetName = () => ruled(`${kubernetesNameAllowed("label").replace("a Kubernetes object name", "a fleet name")}, such as prod`, (v) => kubernetesNameProblem(v, "label"));

/** An HTTP basic user name: RFC 7617 allows no ':' in it (the user-id ends at the first colon). */
export const repoUsername = () =>
    ruled("a user name without white space or ':' (for a token most hosts take any name, such as x-access-token)", (v) =>
        /[\s\u0000-\u001f\u007f]/.test(v) ? "contains white space or control characters" : v.includes(":") ? "contains ':', which ends the user name in HTTP basic authentication (RFC 7617)" : undefined,
    );

/**
 * The PEM blocks Argo CD's SSH client parses, by block type (golang.org/x/crypto/ssh keys.go, `ParseRawPrivateKey`,
 * which Argo CD's util/git/client.go `buildSSHAuth` calls through `ssh.ParsePrivateKey`).
 */
const KEY_BLOCKS = ["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY", "OPENSSH PRIVATE KEY"];

/**
 * Why `key` is not an SSH private key Argo CD can use, without quoting any of it: one PEM block of a type
 * {@link KEY_BLOCKS} lists, not encrypted (x/crypto returns `PassphraseMissingError` for a `Proc-Type: 4,ENCRYPTED`
 * block and for an OpenSSH key whose cipher is not `none`, and Argo CD has no field for a passphrase).
 */
export function sshPrivateKeyProblem(key: string): string | undefined {
    if (/^(ssh-|ecdsa-|sk-)[\w@.-]+ AAAA/.test(key) || key.includes("PUBLIC KEY-----")) return "is a public key; Argo CD needs the private key whose public key the repository host accepts";
    const begin = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(key);
    if (!begin) return "is not a PEM private key (-----BEGIN OPENSSH PRIVATE KEY----- … -----END OPENSSH PRIVATE KEY-----)";
    const type = begin[1]!;
    if (type === "ENCRYPTED PRIVATE KEY") return "is encrypted (PKCS #8 with a passphrase), and Argo CD reads only unencrypted keys";
    if (!KEY_BLOCKS.includes(type)) return `is a PEM block of type "${type}", not a private key Argo CD reads (${KEY_BLOCKS.join(", ")})`;
    const end = key.indexOf(`-----END ${type}-----`);
    if (end < 0) return `has no -----END ${type}----- line (was it cut off?)`;
    const body = key.slice(begin.index + begin[0].length, end);
    if (/Proc-Type:\s*4,ENCRYPTED/.test(body)) return "is encrypted (Proc-Type: 4,ENCRYPTED), and Argo CD reads only unencrypted keys";
    const base64 = body.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return "has a body that is not base64";
    if (type === "OPENSSH PRIVATE KEY") {
        // openssh-key-v1: the magic, then the cipher's name as an SSH string (PROTOCOL.key in OpenSSH's sources).
        const bytes = Buffer.from(base64, "base64");
        const magic = "openssh-key-v1\0";
        if (bytes.subarray(0, magic.length).toString("latin1") !== magic) return "is not an openssh-key-v1 key";
        const length = bytes.length >= magic.length + 4 ? bytes.readUInt32BE(magic.length) : -1;
        const cipher = length >= 0 ? bytes.subarray(magic.length + 4, magic.length + 4 + length).toString("latin1") : "";
        if (cipher !== "none") return "is encrypted with a passphrase, and Argo CD reads only unencrypted keys";
    }
    return undefined;
}

/** An unencrypted SSH private key (stored encrypted in the stack). */
export const sshPrivateKey = (): ValueType<string> => ({
    pulumiType: "string",
    allowed: "an unencrypted SSH private key in PEM or OpenSSH form (pulumi config set --secret mara:gitopsRepoSshPrivateKey < key)",
    parse(raw) {
        const value = raw.trim();
        if (value === "") return fail("is empty");
        const why = sshPrivateKeyProblem(value);
        return why ? fail(why) : ok(`${value}\n`);
    },
    render: (v) => v,
});
