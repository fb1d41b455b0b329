/**
 * What git and Argo CD accept as the repository, revision and folder of a render, one rule each, used with the same
 * words by the configuration (`mara:gitopsRepoUrl`, `mara:gitopsRevision`, `mara:gitopsPath`) and by the `ArgoCd`
 * component for a library user's literal source. Each rule names its upstream source:
 *
 * - the repository URL: Argo CD clones over HTTPS (`username`/`password`) or SSH (`sshPrivateKey`), as its declarative
 *   setup documents (argoproj/argo-cd docs/operator-manual/declarative-setup.md, "Repositories"); it takes a URL for
 *   SSH only with a user (util/git/git.go, `sshURLRegex` in `IsSSHURL`: `^(ssh://)?([^/:]*?)@[^@]+$`), and git refuses
 *   a host or a path that looks like an option (git/git connect.c, `looks_like_command_line_option`: "strange hostname
 *   blocked", "strange pathname blocked");
 * - the revision: git's reference name rules (git/git refs.c, `check_refname_component` and `check_or_sanitize_refname`;
 *   Documentation/git-check-ref-format.adoc), with one-level names allowed (a branch such as `main`), never a name
 *   starting with `-` (`git check-ref-format --branch`; Argo CD hands the revision to `git fetch`), `HEAD`, or a
 *   commit (40 hex digits, or 64 for SHA-256 repositories);
 * - the folder: Argo CD refuses an absolute application path and one outside the repository's root
 *   (util/app/path/path.go, `Path`: "app path is absolute", "app path outside root").
 *
 * A credential is never part of the URL: the URL is written into the Applications `mara render` writes for Git, into
 * the stack's outputs and into Argo CD's objects. Argo CD takes the credential from a repository Secret instead
 * ({@link REPOSITORY_CREDENTIALS_DOCS}).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isHostname, isIpv4 } from "./names";
import { CREDENTIAL_PARAMETER_NAME } from "./urlCredentials";

/** Where Argo CD documents the repository Secret that holds a repository's credential. */
export const REPOSITORY_CREDENTIALS_DOCS = "https://argo-cd.readthedocs.io/en/stable/operator-manual/declarative-setup/#repositories";

/** How Argo CD reaches a repository, from the form of its URL. */
export type RepositoryTransport = "https" | "http" | "ssh";

/**
 * The credential Argo CD clones the render's repository with, as its repository Secret holds it: a user name and a
 * password or token over HTTPS (Argo CD uses `x-access-token` when no user name is given, util/git/client.go `newAuth`),
 * or an SSH private key.
 */
export type RepositoryCredentials =
    | {
          /** User name for HTTPS; leave out for a token the host takes with any user name. */
          readonly username?: string;
          /** Password or access token (secret). */
          readonly password: pulumi.Input<string>;
      }
    | {
          /** An unencrypted SSH private key in PEM or OpenSSH form (secret). */
          readonly sshPrivateKey: pulumi.Input<string>;
      };

/** Characters a URL may hold unencoded (RFC 3986 section 2: unreserved, reserved and `%`). */
const URL_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

/** Query parameters whose value is a credential: the redactor's rule (GitLab's `private_token`, OAuth's `access_token`, a signed URL's `sig`). */
const CREDENTIAL_PARAMETER = CREDENTIAL_PARAMETER_NAME;

/** Whether git would take the text for an option. */
const looksLikeOption = (s: string) => s.startsWith("-");

/** The parts of a repository URL, in either of the forms git reads (a URL, or scp's `user@host:path`). */
interface RepoUrlParts {
    readonly transport: RepositoryTransport;
    readonly user?: string;
    readonly password?: string;
    readonly host: string;
    readonly port?: string;
    readonly path: string;
    readonly query?: string;
    readonly fragment?: string;
}

/** Splits a repository URL, or says which form it is not. User information ends at the authority's last '@', as URL parsers read it. */
function partsOf(url: string): RepoUrlParts | { problem: string } {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1];
    if (scheme === undefined) {
        // scp's form: `user@host:path`, which git recognises when no slash comes before the first colon after the host.
        const scp = /^([^/]*)@([^/:@]+):(.*)$/.exec(url);
        if (!scp) {
            return /^[^/:@]+:/.test(url)
                ? { problem: "has no user before the host (git@host:path): Argo CD reads an SSH URL only with a user" }
                : { problem: "is not a repository URL: give https://host/org/repo.git, or git@host:org/repo.git for SSH" };
        }
        return { transport: "ssh", ...userInfo(scp[1]!), host: scp[2]!, path: scp[3]! };
    }
    const transport = scheme.toLowerCase();
    if (transport !== "https" && transport !== "http" && transport !== "ssh") {
        return { problem: `uses the scheme "${scheme}://": Argo CD clones a repository over HTTPS (https://host/org/repo.git) or SSH (git@host:org/repo.git, or an ssh:// URL with a user)` };
    }
    const rest = url.slice(scheme.length + 3);
    const end = rest.search(/[/?#]/);
    const authority = end < 0 ? rest : rest.slice(0, end);
    let tail = end < 0 ? "" : rest.slice(end);
    const at = authority.lastIndexOf("@");
    const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(authority.slice(at + 1))!;
    const hash = tail.indexOf("#");
    const fragment = hash < 0 ? undefined : tail.slice(hash + 1);
    if (hash >= 0) tail = tail.slice(0, hash);
    const question = tail.indexOf("?");
    const query = question < 0 ? undefined : tail.slice(question + 1);
    return {
        transport,
        ...(at < 0 ? {} : userInfo(authority.slice(0, at))),
        host: hostPort[1]!,
        ...(hostPort[2] === undefined ? {} : { port: hostPort[2] }),
        path: question < 0 ? tail : tail.slice(0, question),
        ...(query === undefined ? {} : { query }),
        ...(fragment === undefined ? {} : { fragment }),
    };
}

/** A URL's user information as its user and password. */
function userInfo(info: string): { user: string; password?: string } {
    const colon = info.indexOf(":");
    return colon < 0 ? { user: info } : { user: info.slice(0, colon), password: info.slice(colon + 1) };
}

/** The query parameters of a URL query whose names say they hold a credential. */
const credentialParameters = (query: string | undefined) =>
    (query ?? "")
        .split("&")
        .map((p) => p.split("=")[0]!)
        .filter((name) => CREDENTIAL_PARAMETER.test(name));

/**
 * What credential a repository URL holds, in words without its value, or undefined when it holds none: user
 * information over HTTP(S) (a user and password, or a token given as the user), a password in an SSH URL, or a
 * query parameter named as a credential. A user alone in an SSH URL (`git@host`) is the account, not a credential.
 */
export function repoUrlCredential(url: string): string | undefined {
    const parts = partsOf(url.trim());
    if ("problem" in parts) return undefined;
    if (parts.password !== undefined) return "a password in its user information (user:…@host)";
    if (parts.user !== undefined && parts.transport !== "ssh") return "user information (…@host): a token or a user name, which git sends as a credential";
    const named = credentialParameters(parts.query);
    if (named.length) return `a credential in its query (${named.map((n) => `${n}=…`).join(", ")})`;
    return undefined;
}

/** The URL without the credential {@link repoUrlCredential} finds: what the configuration should hold instead. */
export function repoUrlWithoutCredential(url: string): string {
    const given = url.trim();
    const parts = partsOf(given);
    if ("problem" in parts) return given;
    const user = parts.transport === "ssh" && parts.user !== undefined ? `${parts.user}@` : "";
    // scp's form has no scheme, query or port.
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(given)) return `${user}${parts.host}:${parts.path}`;
    const query = (parts.query ?? "")
        .split("&")
        .filter((p) => p !== "" && !CREDENTIAL_PARAMETER.test(p.split("=")[0]!))
        .join("&");
    return `${parts.transport}://${user}${parts.host}${parts.port !== undefined ? `:${parts.port}` : ""}${parts.path}${query ? `?${query}` : ""}`;
}

/** How Argo CD reaches the repository at `url` (assumed valid by {@link gitRepoUrlProblem}). */
export function repositoryTransport(url: string): RepositoryTransport {
    const parts = partsOf(url.trim());
    return "problem" in parts ? "https" : parts.transport;
}

/**
 * Why git and Argo CD cannot clone a repository at `url`, or undefined when they can. A credential in the URL is not
 * a problem of its form: {@link repoUrlCredential} names it.
 */
export function gitRepoUrlProblem(url: string): string | undefined {
    if (url === "") return "is empty";
    if (/[\s\u0000-\u001f\u007f]/.test(url)) return "contains white space or control characters";
    if (looksLikeOption(url)) return "starts with '-', which git would take for an option";
    const odd = [...url].find((c) => !URL_CHARACTERS.test(c));
    if (odd !== undefined) return `contains "${odd}", which a URL holds only percent-encoded (RFC 3986)`;
    const parts = partsOf(url);
    if ("problem" in parts) return parts.problem;
    const host = parts.host;
    if (host === "") return "names no host";
    if (looksLikeOption(host)) return `has the host "${host}", which git blocks because it looks like an option`;
    if (!isHostname(host) && !isIpv4(host) && !/^\[[0-9A-Fa-f:.]+\]$/.test(host)) return `has an invalid host "${host}"`;
    if (parts.port !== undefined && (!/^\d{1,5}$/.test(parts.port) || Number(parts.port) < 1 || Number(parts.port) > 65535)) return `has an invalid port "${parts.port}" (1 to 65535)`;
    if (parts.transport === "ssh" && (parts.user === undefined || parts.user === "")) return "has no user before the host: Argo CD reads an SSH URL only with a user (the account, such as git, then '@')";
    if (parts.transport === "ssh" && parts.user !== undefined && !/^[A-Za-z0-9._-]+$/.test(parts.user)) return `has the SSH user "${parts.user}", which is not a user name (letters, digits, '.', '_' and '-')`;
    if (parts.transport === "ssh" && looksLikeOption(parts.user ?? "")) return `has the SSH user "${parts.user}", which ssh would take for an option`;
    const repoPath = parts.path.replace(/^\//, "");
    if (repoPath === "" || repoPath === "/") return "names no repository (no path after the host)";
    if (looksLikeOption(parts.path)) return `has the path "${parts.path}", which git blocks because it looks like an option`;
    if (parts.fragment !== undefined) return "has a fragment (#…), which git does not send; give the branch, tag or commit in mara:gitopsRevision";
    const query = (parts.query ?? "").split("&").filter((p) => p !== "" && !CREDENTIAL_PARAMETER.test(p.split("=")[0]!));
    if (query.length) return "has a query (?…), after which git would append its own path (info/refs), so the clone fails";
    return undefined;
}

/** What a repository URL may be, in the words messages use after "Allowed:". */
export const GIT_REPO_URL_ALLOWED =
    "a Git repository URL Argo CD can clone, without a credential: https://host/org/repo.git, or for SSH git@host:org/repo.git (or an ssh:// URL with a user)";

/** A commit id: SHA-1 (40 hex digits) or SHA-256 (64). */
const COMMIT = /^([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/** Characters git refuses anywhere in a reference name (refs.c, `refname_disposition` 4 and 5). */
const REFNAME_FORBIDDEN = /[\u0000-\u001f\u007f ~^:?*[\\]/;

/** File systems cap one name at 255 bytes, and a loose reference is a file named by each component. */
const NAME_MAX = 255;

/**
 * Why `revision` is not a branch, tag or commit git and Argo CD can follow, or undefined when it is: git's reference
 * name rules (module comment), one level allowed, `HEAD`, a commit, never an option.
 */
export function gitRevisionProblem(revision: string): string | undefined {
    if (revision === "") return "is empty";
    if (revision === "HEAD" || COMMIT.test(revision)) return undefined;
    if (looksLikeOption(revision)) return "starts with '-', which git would take for an option (git check-ref-format --branch refuses it)";
    const bad = REFNAME_FORBIDDEN.exec(revision)?.[0];
    if (bad !== undefined) return `contains ${bad === " " ? "a space" : /[\u0000-\u001f\u007f]/.test(bad) ? "a control character" : `"${bad}"`}, which git refuses in a branch or tag name`;
    if (revision === "@") return "is the single character '@', which git refuses as a name";
    if (revision.includes("@{")) return "contains '@{', which git reads as a reflog entry, not a name";
    if (revision.includes("..")) return "contains '..', which git reads as a range of commits, not a name";
    if (revision.startsWith("/") || revision.endsWith("/") || revision.includes("//")) return "has an empty component (a '/' at either end, or '//')";
    if (revision.endsWith(".")) return "ends with '.', which git refuses";
    for (const component of revision.split("/")) {
        if (component.startsWith(".")) return `has the component "${component}", which starts with '.', which git refuses`;
        if (component.endsWith(".lock")) return `has the component "${component}", which ends with '.lock', which git refuses`;
        if (Buffer.byteLength(component) > NAME_MAX) return `has a component of ${Buffer.byteLength(component)} bytes (a file name, which holds at most ${NAME_MAX})`;
    }
    return undefined;
}

/** What a revision may be, in the words messages use after "Allowed:". */
export const GIT_REVISION_ALLOWED =
    "a branch or tag as git names them (no space, ~ ^ : ? * [ \\, '..', '@{', no component starting with '.' or ending with '.lock'), not starting with '-'; HEAD; or a commit (40 or 64 hex digits)";

/**
 * Why `folder` is not a folder of the repository Argo CD can read, or undefined when it is: relative to the root, no
 * `.` or `..` segment, no empty segment, letters, digits and `_ . @ -` in each segment. A trailing `/` is not a
 * problem; {@link normalRepoFolder} drops it.
 */
export function repoFolderProblem(folder: string): string | undefined {
    const f = normalRepoFolder(folder);
    if (f === "") return "is empty (or only '/'), and the render is a folder of the repository";
    if (f.startsWith("/")) return "starts with '/': Argo CD refuses an absolute application path, the folder is relative to the repository's root";
    const segments = f.split("/");
    if (segments.some((s) => s === "..")) return "has a '..' segment: Argo CD refuses an application path outside the repository's root";
    if (segments.some((s) => s === ".")) return "has a '.' segment: give the folder as it is, without '.'";
    if (segments.some((s) => s === "")) return "has an empty segment ('//')";
    const bad = segments.find((s) => !/^[A-Za-z0-9_.@-]+$/.test(s));
    if (bad !== undefined) return `has the segment "${bad}" with characters other than letters, digits, '_', '.', '@' and '-'`;
    const long = segments.find((s) => Buffer.byteLength(s) > NAME_MAX);
    if (long !== undefined) return `has a segment of ${long.length} characters (a folder's name holds at most ${NAME_MAX} bytes)`;
    return undefined;
}

/** What a folder may be, in the words messages use after "Allowed:". */
export const REPO_FOLDER_ALLOWED = "a folder of the repository relative to its root, such as deploy/prod: no leading '/', no '.' or '..' segment, letters, digits and _ . @ - in each segment";

/** The folder without trailing slashes. */
export const normalRepoFolder = (folder: string) => (folder.length > 1 ? folder.replace(/\/+$/, "") : folder === "/" ? "" : folder);
