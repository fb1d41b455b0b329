/**
 * The rules of the render's Git source, each at its boundary and beside it: the repository URL (what Argo CD and git
 * clone, and which credential a URL holds), the revision (git's check-ref-format rules: git/git refs.c,
 * check_refname_component; Documentation/git-check-ref-format.adoc), the folder (Argo CD's util/app/path/path.go),
 * and the SSH key Argo CD parses (golang.org/x/crypto/ssh ParseRawPrivateKey). The expectations are the consumers'
 * verdicts, not what the code happens to do: each refused case names what git or Argo CD does with it.
 */
import { describe, expect, it } from "vitest";
import { gitRepoUrlProblem, gitRevisionProblem, repoFolderProblem, repositoryTransport, repoUrlCredential, repoUrlWithoutCredential } from "../../contracts/gitSource";
import { redactUrlCredentials, urlCredentials } from "../../contracts/urlCredentials";
import { sshPrivateKeyProblem } from "../../config/gitopsValues";

describe("repository URLs: what Argo CD and git clone", () => {
    it("takes https, http, ssh:// with a user and scp's user@host:path", () => {
        for (const url of [
            "https://github.com/your-org/platform-config.git",
            "https://git.example.com:8443/group/sub/repo",
            "http://gitea-http.gitea.svc:3000/org/repo.git",
            "ssh://git@github.com/your-org/platform-config.git",
            "ssh://git@git.example.com:2222/org/repo.git",
            "git@github.com:your-org/platform-config.git",
            "git@10.0.0.5:/srv/git/repo.git",
            "https://[2001:db8::1]/org/repo.git",
            // A query parameter that is no credential: a form problem, not a credential one (below).
        ]) {
            expect(gitRepoUrlProblem(url), url).toBeUndefined();
        }
        expect(repositoryTransport("git@github.com:o/r.git")).toBe("ssh");
        expect(repositoryTransport("ssh://git@h/o/r")).toBe("ssh");
        expect(repositoryTransport("HTTPS://h/o/r")).toBe("https");
        expect(repositoryTransport("http://h/o/r")).toBe("http");
    });

    it("refuses what Argo CD cannot clone: other schemes, SSH without a user, no path, a fragment or a query", () => {
        const cases: [string, string][] = [
            ["git://github.com/org/repo.git", 'uses the scheme "git://"'],
            ["file:///srv/git/repo.git", 'uses the scheme "file://"'],
            ["ftp://h/repo.git", 'uses the scheme "ftp://"'],
            ["/srv/git/repo.git", "is not a repository URL"],
            ["github.com:org/repo.git", "has no user before the host (git@host:path)"],
            ["ssh://github.com/org/repo.git", "has no user before the host: Argo CD reads an SSH URL only with a user"],
            ["https://github.com", "names no repository (no path after the host)"],
            ["https://github.com/", "names no repository"],
            ["https://github.com/org/repo.git#main", "has a fragment (#…)"],
            ["https://github.com/org/repo.git?ref=main", "has a query (?…)"],
            ["https://github.com:0/org/repo", 'has an invalid port "0"'],
            ["https://github.com:65536/org/repo", 'has an invalid port "65536"'],
            ["https://bad_host.example.com/org/repo", 'has an invalid host "bad_host.example.com"'],
            ["https:///org/repo", "names no host"],
        ];
        for (const [url, problem] of cases) expect(gitRepoUrlProblem(url), url).toContain(problem);
        // The neighbours that pass.
        expect(gitRepoUrlProblem("https://github.com:65535/org/repo")).toBeUndefined();
        expect(gitRepoUrlProblem("https://github.com/o")).toBeUndefined();
    });

    it("refuses options, white space and characters a URL holds only encoded", () => {
        expect(gitRepoUrlProblem("-uhttps://h/o/r")).toContain("starts with '-', which git would take for an option");
        expect(gitRepoUrlProblem("ssh://-oProxyCommand=touch%20x@h/o/r")).toContain('has the SSH user "-oProxyCommand=touch%20x"');
        expect(gitRepoUrlProblem("ssh://git@-oProxyCommand=x/o/r")).toContain("git blocks because it looks like an option");
        expect(gitRepoUrlProblem("git@host:-u/evil")).toContain("git blocks because it looks like an option");
        expect(gitRepoUrlProblem("https://h/o r")).toBe("contains white space or control characters");
        expect(gitRepoUrlProblem("https://h/o/r\n")).toBe("contains white space or control characters");
        expect(gitRepoUrlProblem("https://h/{o}/r")).toContain('contains "{", which a URL holds only percent-encoded');
        // A Unicode look-alike of a Latin letter in the host.
        expect(gitRepoUrlProblem("https://gіthub.com/o/r")).toContain('contains "і"');
        expect(gitRepoUrlProblem("")).toBe("is empty");
    });

    it("names the credential a URL holds, and leaves the account of an SSH URL alone", () => {
        expect(repoUrlCredential("https://oauth2:ghp_x@github.com/o/r.git")).toContain("a password in its user information");
        expect(repoUrlCredential("https://ghp_tokenonly@github.com/o/r.git")).toContain("user information");
        expect(repoUrlCredential("https://@github.com/o/r.git")).toContain("user information");
        expect(repoUrlCredential("https://h/o/r.git?private_token=glpat-x")).toBe("a credential in its query (private_token=…)");
        expect(repoUrlCredential("https://h/o/r.git?sig=abc&ref=x")).toBe("a credential in its query (sig=…)");
        expect(repoUrlCredential("ssh://git:hunter2@h/o/r.git")).toContain("a password");
        expect(repoUrlCredential("git:hunter2@h:o/r.git")).toContain("a password");
        // An unencoded '@' in the password belongs to the user information, as URL parsers read it.
        expect(repoUrlCredential("https://u:p@ss@h/o/r")).toContain("a password");
        expect(gitRepoUrlProblem("https://u:p@ss@h/o/r")).toBeUndefined();
        for (const url of ["ssh://git@h/o/r.git", "git@github.com:o/r.git", "https://h/o/r.git"]) expect(repoUrlCredential(url), url).toBeUndefined();
    });

    it("gives the URL without its credential, for the fix", () => {
        expect(repoUrlWithoutCredential("https://oauth2:tok@github.com/o/r.git")).toBe("https://github.com/o/r.git");
        expect(repoUrlWithoutCredential("https://u:p@ss@h:8443/o/r")).toBe("https://h:8443/o/r");
        expect(repoUrlWithoutCredential("https://h/o/r.git?private_token=x")).toBe("https://h/o/r.git");
        expect(repoUrlWithoutCredential("ssh://git:pw@h/o/r.git")).toBe("ssh://git@h/o/r.git");
        expect(repoUrlWithoutCredential("git:pw@h:o/r.git")).toBe("git@h:o/r.git");
    });

    it("the redactor hides a credential in a query as it hides user information", () => {
        expect(redactUrlCredentials("clone https://h/o/r.git?private_token=glpat-secret1&ref=main")).toBe("clone https://h/o/r.git?private_token=[secret]&ref=main");
        expect(redactUrlCredentials("https://u:p@ss@h/o/r")).toBe("https://[secret]@h/o/r");
        expect(urlCredentials("https://h/o?access_token=a%2Fb")).toEqual(["a%2Fb", "a/b"]);
        // Not a credential by its name: shown.
        expect(redactUrlCredentials("https://h/o?ref=main")).toBe("https://h/o?ref=main");
    });
});

describe("revisions: git's reference name rules", () => {
    it("takes branches, tags, one-level names, HEAD and commits", () => {
        for (const rev of ["main", "release/1.2", "v1.2.3", "refs/heads/main", "refs/tags/v1.0.0", "HEAD", "a".repeat(40), "0123456789abcdef".repeat(4), "feature/ümlaut", "x".repeat(255), "a.b", "a@b", "-".slice(1) + "b-", "foo.lock.d"]) {
            expect(gitRevisionProblem(rev), rev).toBeUndefined();
        }
    });

    it("refuses each form check_refname_component refuses, and options", () => {
        const cases: [string, string][] = [
            ["--orphan", "starts with '-'"],
            ["-b", "starts with '-'"],
            ["a..b", "contains '..'"],
            ["main^", 'contains "^"'],
            ["main~1", 'contains "~"'],
            ["a:b", 'contains ":"'],
            ["a?b", 'contains "?"'],
            ["a*", 'contains "*"'],
            ["a[b", 'contains "["'],
            ["a\\b", 'contains "\\"'],
            ["a b", "contains a space"],
            ["a\tb", "contains a control character"],
            ["a\u007fb", "contains a control character"],
            ["main@{1}", "contains '@{'"],
            ["@", "is the single character '@'"],
            ["/main", "has an empty component"],
            ["main/", "has an empty component"],
            ["a//b", "has an empty component"],
            ["main.", "ends with '.'"],
            [".hidden", 'has the component ".hidden", which starts with \'.\''],
            ["a/.b", 'has the component ".b"'],
            ["main.lock", 'has the component "main.lock", which ends with \'.lock\''],
            ["a/b.lock/c", 'has the component "b.lock"'],
            ["x".repeat(256), "has a component of 256 bytes"],
            ["", "is empty"],
        ];
        for (const [rev, problem] of cases) expect(gitRevisionProblem(rev), rev).toContain(problem);
        // 39 and 41 hex digits are names, not commits; still valid names.
        expect(gitRevisionProblem("a".repeat(39))).toBeUndefined();
        expect(gitRevisionProblem("a".repeat(41))).toBeUndefined();
    });
});

describe("folders: what Argo CD reads inside the repository", () => {
    it("takes relative folders, a trailing slash dropped", () => {
        for (const f of ["deploy/prod", "deploy/prod/", "a", "x.y/@z_1-2", "a".repeat(255)]) expect(repoFolderProblem(f), f).toBeUndefined();
    });

    it("refuses absolute paths, '..' and '.' segments, empty segments and other characters", () => {
        const cases: [string, string][] = [
            ["/deploy", "starts with '/': Argo CD refuses an absolute application path"],
            ["../up", "has a '..' segment"],
            ["deploy/../../etc", "has a '..' segment"],
            ["./deploy", "has a '.' segment"],
            ["deploy//prod", "has an empty segment"],
            ["deploy prod", 'has the segment "deploy prod"'],
            ["déploy", 'has the segment "déploy"'],
            ["a".repeat(256), "has a segment of 256 characters"],
            ["/", "is empty"],
            ["", "is empty"],
        ];
        for (const [f, problem] of cases) expect(repoFolderProblem(f), f).toContain(problem);
        // Neighbours: a segment that only starts with dots is a name.
        expect(repoFolderProblem("..deploy")).toBeUndefined();
    });
});

describe("SSH private keys: what Argo CD's SSH client parses", () => {
    const openssh = (cipher: string) => {
        const magic = Buffer.from("openssh-key-v1\0", "latin1");
        const len = Buffer.alloc(4);
        len.writeUInt32BE(cipher.length);
        const body = Buffer.concat([magic, len, Buffer.from(cipher, "latin1"), Buffer.alloc(16)]).toString("base64");
        return `-----BEGIN OPENSSH PRIVATE KEY-----\n${body.match(/.{1,70}/g)!.join("\n")}\n-----END OPENSSH PRIVATE KEY-----`;
    };

    it("takes unencrypted PEM and OpenSSH keys", () => {
        expect(sshPrivateKeyProblem(openssh("none"))).toBeUndefined();
        expect(sshPrivateKeyProblem("-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK==\n-----END RSA PRIVATE KEY-----")).toBeUndefined();
        expect(sshPrivateKeyProblem("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----")).toBeUndefined();
    });

    it("refuses encrypted keys, public keys, other PEM blocks and cut-off keys, quoting none of it", () => {
        expect(sshPrivateKeyProblem(openssh("aes256-ctr"))).toContain("is encrypted with a passphrase");
        expect(sshPrivateKeyProblem("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nMIIB\n-----END RSA PRIVATE KEY-----")).toContain("Proc-Type: 4,ENCRYPTED");
        expect(sshPrivateKeyProblem("-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----")).toContain("is encrypted (PKCS #8");
        expect(sshPrivateKeyProblem("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI secret-comment")).toContain("is a public key");
        expect(sshPrivateKeyProblem("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----")).toContain('a PEM block of type "CERTIFICATE"');
        expect(sshPrivateKeyProblem("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn")).toContain("has no -----END OPENSSH PRIVATE KEY----- line");
        expect(sshPrivateKeyProblem("hunter2-secret-text")).toContain("is not a PEM private key");
        expect(sshPrivateKeyProblem("-----BEGIN OPENSSH PRIVATE KEY-----\nnot base64!\n-----END OPENSSH PRIVATE KEY-----")).toBe("has a body that is not base64");
        for (const k of ["hunter2-secret-text", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI secret-comment"]) expect(sshPrivateKeyProblem(k)).not.toContain("secret");
    });
});
