/**
 * The rules behind the validation classes, at their boundaries: the EKS calendar and upstream releases by day,
 * host names, host paths, private ranges, ciphertext forms, the redactor and message shortening.
 */
import { describe, expect, it } from "vitest";
import { hostnameProblem, hostPathProblem, isPrivateIpv4Cidr } from "../../contracts";
import { creatableEksVersions, EKS_VERSIONS, eksVerdict } from "../../config/eksVersions";
import { upstreamVerdict } from "../../config/kubernetesReleases";
import { Redactor, shorten } from "../../config/redact";
import { ciphertextProblem } from "../../config/secureValues";
import { parseSourceLocation, resolveLocalPath } from "../../config/localPaths";
import { legacyPinReplacement } from "../../config/legacyPins";

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe("the EKS calendar, by day", () => {
    it("creates a version up to the day before its extended support ends, and not on that day", () => {
        expect(eksVerdict("1.31", day("2026-11-25"))).toMatchObject({ kind: "extended" });
        expect(eksVerdict("1.31", day("2026-11-26"))).toEqual({ kind: "ended", endedOn: "2026-11-26" });
    });

    it("bills extended support from the day standard support ends", () => {
        expect(eksVerdict("1.32", day("2026-03-22")).kind).toBe("standard");
        expect(eksVerdict("1.32", day("2026-03-23")).kind).toBe("extended");
    });

    it("knows nothing newer than its newest row, and everything older than its oldest has ended", () => {
        expect(eksVerdict("1.35", day("2026-11-20")).kind).toBe("standard");
        expect(eksVerdict("1.36", day("2026-11-20")).kind).toBe("unknown");
        expect(eksVerdict("1.28", day("2026-11-20"))).toEqual({ kind: "ended" });
        expect(eksVerdict("1.21", day("2022-01-01"))).toEqual({ kind: "ended" });
        // Before its EKS release a version is not offered either.
        expect(eksVerdict("1.35", day("2026-01-26")).kind).toBe("unknown");
    });

    it("lists what EKS creates on a day, newest first", () => {
        expect(creatableEksVersions(day("2026-11-20")).map((v) => v.version)).toEqual(["1.35", "1.34", "1.33", "1.32", "1.31"]);
        expect(creatableEksVersions(day("2027-03-23")).map((v) => v.version)).toEqual(["1.35", "1.34", "1.33"]);
        // Every row spans 14 months of standard and 12 of extended support, as AWS defines it.
        for (const v of EKS_VERSIONS) {
            const months = (a: string, b: string) => (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));
            expect(months(v.released, v.endOfStandardSupport), v.version).toBe(14);
            expect(months(v.endOfStandardSupport, v.endOfExtendedSupport), v.version).toBe(12);
        }
    });
});

describe("upstream Kubernetes releases, by day", () => {
    it("ends a minor on its end-of-life day, and knows no minor after the newest", () => {
        expect(upstreamVerdict("1.34", day("2026-10-26")).kind).toBe("supported");
        expect(upstreamVerdict("1.34", day("2026-10-27"))).toEqual({ kind: "endOfLife", on: "2026-10-27" });
        expect(upstreamVerdict("1.37", day("2026-11-20")).kind).toBe("supported");
        expect(upstreamVerdict("1.38", day("2026-11-20")).kind).toBe("unreleased");
        expect(upstreamVerdict("1.23", day("2026-11-20"))).toEqual({ kind: "endOfLife", on: "before 2025-02-28" });
    });
});

describe("host names", () => {
    it.each([
        ["203.0.113.7", "is an IP address, and an Ingress host or certificate name must be a DNS name"],
        ["::1", "is an IP address, and an Ingress host or certificate name must be a DNS name"],
        ["*.example.com", "is a wildcard, and one host name is needed"],
        ["localhost", "has no domain (a fully qualified name has at least one dot)"],
        ["a..example.com", "has an empty label ('..', or a dot at the start)"],
        ["-bank.example.com", 'has a label "-bank" with characters other than letters, digits and \'-\', or a \'-\' at its start or end'],
        ["bank.example.123", "ends in a numeric label, which no top-level domain is"],
    ])("refuses %s", (host, why) => {
        expect(hostnameProblem(host)).toBe(why);
    });

    it("accepts a 63-character label and a 253-character name, and refuses one character more", () => {
        const l63 = "a".repeat(63);
        expect(hostnameProblem(`${l63}.example.com`)).toBeUndefined();
        expect(hostnameProblem(`${l63}a.example.com`)).toMatch(/^has a label of 64 characters/);
        const name253 = `${l63}.${l63}.${l63}.${"b".repeat(57)}.com`;
        expect(name253).toHaveLength(253);
        expect(hostnameProblem(name253)).toBeUndefined();
        expect(hostnameProblem(`a${name253}`)).toBe("is 254 characters long (a DNS name has at most 253)");
    });
});

describe("host paths", () => {
    it.each([
        ["/", "is the node's root directory, which must never be mounted into a pod"],
        ["/var", "is a system directory of the node, which must never be mounted into a pod"],
        ["/proc", "is a system directory of the node, which must never be mounted into a pod"],
        ["/var/log/..", "contains '.' or '..' segments"],
        ["/var/./log", "contains '.' or '..' segments"],
        ["/var//log", "contains an empty segment ('//' or a trailing '/')"],
        ["/var/log/", "contains an empty segment ('//' or a trailing '/')"],
        ["var/log", "is not an absolute path"],
        ["/var/log/con tainers", "contains characters other than letters, digits, '.', '_', '-' and '/'"],
    ])("refuses %s", (p, why) => {
        expect(hostPathProblem(p)).toBe(why);
    });

    it("accepts directories below the system ones, including neighbours of their names", () => {
        for (const p of ["/var/log/containers", "/var/log", "/etcd-data/logs", "/vars", "/var/lib/docker/containers"]) expect(hostPathProblem(p), p).toBeUndefined();
    });
});

describe("private ranges", () => {
    it.each([
        ["10.0.0.0/16", true],
        ["10.255.0.0/16", true],
        ["172.16.0.0/16", true],
        ["172.31.0.0/16", true],
        ["172.32.0.0/16", false],
        ["172.15.0.0/16", false],
        ["192.168.0.0/16", true],
        ["192.169.0.0/16", false],
        ["100.64.0.0/16", false],
        ["11.0.0.0/16", false],
    ])("%s is private: %s", (cidr, expected) => {
        expect(isPrivateIpv4Cidr(cidr)).toBe(expected);
    });
});

describe("ciphertext", () => {
    const nonce = Buffer.alloc(12).toString("base64");
    const sealed = Buffer.alloc(16).toString("base64");
    it("accepts the forms the secrets providers write", () => {
        expect(ciphertextProblem(`v1:${nonce}:${sealed}`, true)).toBeUndefined();
        expect(ciphertextProblem(Buffer.from("service ciphertext").toString("base64"), false)).toBeUndefined();
    });

    it("refuses what no provider can decrypt, without quoting it", () => {
        expect(ciphertextProblem("hunter2", true)).toMatch(/^has a `secure:` value that is not passphrase ciphertext/);
        expect(ciphertextProblem(`v2:${nonce}:${sealed}`, true)).toMatch(/not passphrase ciphertext/);
        expect(ciphertextProblem(`v1:${Buffer.alloc(11).toString("base64")}:${sealed}`, true)).toBe("has a `secure:` value whose nonce is not 12 bytes of base64, so Pulumi cannot decrypt it");
        expect(ciphertextProblem(`v1:${nonce}:${Buffer.alloc(15).toString("base64")}`, true)).toMatch(/ciphertext is not base64 of at least 16 bytes/);
        expect(ciphertextProblem(`v1:${nonce}:${sealed}`, false)).toMatch(/has no encryptionsalt/);
        expect(ciphertextProblem("not base64!", false)).toMatch(/not base64 ciphertext/);
        expect(ciphertextProblem("", false)).toBe("has a `secure:` value that is empty or not text");
        expect(ciphertextProblem({ nested: "x" }, true)).toBe("has a `secure:` value that is empty or not text");
        for (const why of [ciphertextProblem("hunter2", true), ciphertextProblem("hunter2", false)]) expect(why).not.toContain("hunter2");
    });
});

describe("the redactor", () => {
    it("hides a secret however a message quotes it, and short secrets only where they stand alone", () => {
        const r = new Redactor([`it's "quoted"\\path`, "abc"]);
        expect(r.redact(`set it: 'it'\\''s "quoted"\\path'`)).not.toContain("quoted");
        expect(r.redact(JSON.stringify(`it's "quoted"\\path`))).toBe(`"[secret]"`);
        expect(r.redact("abc abcdef x-abc abc.")).toBe("[secret] abcdef x-abc [secret].");
    });

    it("hides every value of an inline kubeconfig but not the words around it", () => {
        const kubeconfig = "apiVersion: v1\nkind: Config\nclusters:\n- name: lab\n  cluster: {server: 'https://10.1.2.3:6443'}\nusers:\n- name: admin\n  user: {token: tok-1234567890}\n";
        const r = Redactor.of({ values: { "kubernetes:kubeconfig": kubeconfig }, secretKeys: new Set() });
        expect(r.redact("server https://10.1.2.3:6443 token tok-1234567890 user admin in Config context")).toBe("server [secret] token [secret] user [secret] in Config context");
    });

    it("treats keys that name credentials as secret, known or not", () => {
        const r = Redactor.of({ values: { "mara:grafanaAdminPasword": "typo-secret-value", "aws:secretKey": "AKIA-secret-value", "mara:clusterName": "visible-name" }, secretKeys: new Set() });
        expect(r.redact("typo-secret-value AKIA-secret-value visible-name")).toBe("[secret] [secret] visible-name");
    });

    it("shortens runs of over 100 characters, keeping their start and length", () => {
        expect(shorten(`a ${"x".repeat(100)} b`)).toBe(`a ${"x".repeat(100)} b`);
        expect(shorten(`a ${"x".repeat(101)} b`)).toBe(`a ${"x".repeat(40)}… (101 characters) b`);
    });
});

describe("local paths and sources", () => {
    it("expands ~ and resolves relative paths against the project directory", () => {
        const env = { HOME: "/home/me" };
        expect(resolveLocalPath("~", "/project", env)).toBe("/home/me");
        expect(resolveLocalPath("~/.kube/config", "/project", env)).toBe("/home/me/.kube/config");
        expect(resolveLocalPath("./kube.yaml", "/project", env)).toBe("/project/kube.yaml");
        expect(resolveLocalPath("../shared/kube.yaml", "/project", env)).toBe("/shared/kube.yaml");
        expect(resolveLocalPath("/abs/kube.yaml", "/project", env)).toBe("/abs/kube.yaml");
        // `~user` is a file name like any other, as in Node and the Kubernetes client.
        expect(resolveLocalPath("~other/kube", "/project", env)).toBe("/project/~other/kube");
    });

    it("tells a path on this machine from everything else, at the edge of each form", () => {
        for (const local of ["/src/kic", "~", "~/kic", ".", "./kic", "..", "../kic", "../kic#v5.5.4", "file://../kic"]) {
            expect(parseSourceLocation(local).local, local).toBe(true);
        }
        for (const remote of ["kic", ".kic", "..kic", "~other/kic", "...", "https://x/kic.git", "git@github.com:nginx/kic.git"]) {
            expect(parseSourceLocation(remote).local, remote).toBe(false);
        }
        expect(parseSourceLocation("../kic#v5.5.4")).toEqual({ location: "../kic", ref: "v5.5.4", local: true });
    });

    it("splits file:// URLs and their #ref", () => {
        expect(parseSourceLocation("file:///src/kic#v5.5.4")).toEqual({ location: "/src/kic", ref: "v5.5.4", local: true });
        expect(parseSourceLocation("file:///src/my%20kic")).toEqual({ location: "/src/my kic", ref: undefined, local: true });
        expect(parseSourceLocation("~/kic#main")).toEqual({ location: "~/kic", ref: "main", local: true });
        expect(parseSourceLocation("https://github.com/nginx/kubernetes-ingress.git#v5.5.4")).toEqual({ location: "https://github.com/nginx/kubernetes-ingress.git", ref: "v5.5.4", local: false });
    });
});

describe("MARA's pins", () => {
    it("replaces exactly MARA's pins under MARA's keys, and the image pin keeps its repository", () => {
        expect(legacyPinReplacement("kic-helm:chart_version", "0.15.2")?.value).toBe("2.6.4");
        expect(legacyPinReplacement("kic-helm:chart_version", "0.15.3")).toBeUndefined();
        expect(legacyPinReplacement("mara:ingressChartVersion", "0.15.2")).toBeUndefined();
        expect(legacyPinReplacement("kic:image_name", "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:2.4.2")?.value).toBe("private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4");
        expect(legacyPinReplacement("kic:image_name", "registry.example.com/nginx-ingress:2.4.2")).toBeUndefined();
        expect(legacyPinReplacement("eks:k8s_version", "1.21")?.value).toBe("1.35");
        expect(legacyPinReplacement("eks:k8s_version", "1.22")).toBeUndefined();
    });
});
