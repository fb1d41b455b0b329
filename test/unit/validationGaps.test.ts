/**
 * Rules that accepted what the cloud or the build refuses, or said something untrue: Linode regions checked against
 * the regions Linode has (not their form), empty NGINX Plus certificate files, a YAML list where a password belongs,
 * a cluster name refused in two steps with two different limits, and fix hints that suggest a Kubernetes version
 * the cloud no longer (or not yet) offers on the day the stack is checked.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { formatProblem, KEYS, validateConfig } from "../../config";
import { LINODE_REGIONS } from "../../config/linodeRegions";
import { aws, KUBECONFIG_TEXT, rawConfig } from "../support/config";

const LKE = { "kubernetes:infra_type": "LKE", "linode:region": "us-central", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.net" };
const DO = { "kubernetes:infra_type": "DO", "kic-helm:fqdn": "mara.example.com" };
const problems = (values: Record<string, string>, opts: Parameters<typeof rawConfig>[1] = {}) => validateConfig(rawConfig(values, opts)).problems.map(formatProblem);

describe("Linode regions are the regions Linode has", () => {
    it("a region of the right form that Linode does not have is refused, with the nearest one", () => {
        expect(problems({ ...LKE, "linode:region": "us-centrall" })).toEqual([
            `linode:region = "us-centrall": is not a Linode region; did you mean us-central?. Allowed: a Linode region such as us-central (the ${LINODE_REGIONS.length} that the Linode API's regions with Kubernetes, as of 2026-05-29 lists). Fix: pulumi config set linode:region us-central`,
        ]);
        expect(problems({ ...LKE, "linode:region": "eu-south" })[0]).toContain('linode:region = "eu-south": is not a Linode region');
    });

    it("every listed region, the newer ones with a number included, is accepted", () => {
        for (const region of LINODE_REGIONS) expect(problems({ ...LKE, "linode:region": region }), region).toEqual([]);
        expect(LINODE_REGIONS).toEqual(expect.arrayContaining(["us-ord", "de-fra-2", "sg-sin-2", "jp-tyo-3", "no-osl-1"]));
    });
});

describe("NGINX Plus repository certificate and key files", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-plus-files-"));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    const plus = { "kic:image_origin": "source", "kic:make_target": "debian-image-plus", "mara:nginxJwt": "h.p.s" };

    it("an empty file, or one of white space only, is refused: the build needs the certificate in it", () => {
        fs.writeFileSync(path.join(dir, "nginx-repo.crt"), "");
        fs.writeFileSync(path.join(dir, "nginx-repo.key"), "\n  \n");
        const found = validateConfig(aws({ ...plus, "mara:ingressNginxPlusCertPath": path.join(dir, "nginx-repo.crt"), "mara:ingressNginxPlusKeyPath": path.join(dir, "nginx-repo.key") }, { secret: ["mara:nginxJwt"] })).problems.map(formatProblem);
        expect(found).toEqual([
            `mara:ingressNginxPlusCertPath = "${dir}/nginx-repo.crt": names an empty file, and the build needs the certificate in it (a download that failed, or a file not yet filled in). Allowed: the path of nginx-repo.crt, downloaded from MyF5 (absolute, or relative to the project directory). Fix: download it from MyF5, then pulumi config set mara:ingressNginxPlusCertPath '<path of nginx-repo.crt>'`,
            `mara:ingressNginxPlusKeyPath = "${dir}/nginx-repo.key": names an empty file, and the build needs the key in it (a download that failed, or a file not yet filled in). Allowed: the path of nginx-repo.key, downloaded from MyF5 (absolute, or relative to the project directory). Fix: download it from MyF5, then pulumi config set mara:ingressNginxPlusKeyPath '<path of nginx-repo.key>'`,
        ]);
    });

    it("the same through the configuration's own view of local files (as mara validate gives it)", () => {
        const found = problems({ "kubernetes:infra_type": "aws", "aws:region": "us-east-1", ...plus, "mara:ingressNginxPlusCertPath": "/certs/c.crt", "mara:ingressNginxPlusKeyPath": "/certs/k.key" }, { files: { "/certs/c.crt": "-----BEGIN CERTIFICATE-----\n", "/certs/k.key": "" }, secret: ["mara:nginxJwt"] });
        expect(found).toHaveLength(1);
        expect(found[0]).toContain('mara:ingressNginxPlusKeyPath = "/certs/k.key": names an empty file');
    });
});

describe("a YAML list or mapping where one piece of text belongs", () => {
    it("is refused as a password, without showing it", () => {
        const result = validateConfig(aws({ "mara:grafanaAdminPassword": '["first-half","second-half"]', "sirius:accounts_pwd": '{"user":"password-part"}' }));
        expect(result.problems.map(formatProblem)).toEqual([
            "mara:grafanaAdminPassword: is a list (YAML or JSON), where one piece of text belongs. Allowed: any text of at least 8 characters, on one line (stored encrypted). Fix: pulumi config set --secret mara:grafanaAdminPassword '<value>'",
            "sirius:accounts_pwd: is a mapping (YAML or JSON), where one piece of text belongs. Allowed: any non-empty text (stored encrypted). Fix: pulumi config set --secret sirius:accounts_pwd '<value>'",
        ]);
        expect(JSON.stringify(result)).not.toMatch(/first-half|password-part/);
    });

    it("is refused as a user name, and text that only starts like a list is text", () => {
        expect(problems({ "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "mara:registryUsername": "[robot]" })).toEqual([]);
        expect(problems({ ...LKE, "mara:registryServer": "ghcr.io", "mara:registryRepository": "o/n", "mara:registryUsername": '["robot"]', "mara:registryPassword": "p" })[0]).toBe(
            'mara:registryUsername = "[\\"robot\\"]": is a list (YAML or JSON), where one piece of text belongs. Allowed: any non-empty text. Fix: pulumi config set mara:registryUsername my-robot',
        );
    });

    it("an inline kubeconfig may still be JSON", () => {
        const json = JSON.stringify({ apiVersion: "v1", kind: "Config", "current-context": "lab-admin", contexts: [{ name: "lab-admin", context: { cluster: "lab", user: "admin" } }], clusters: [{ name: "lab", cluster: { server: "https://203.0.113.5:6443" } }], users: [{ name: "admin", user: { token: "t" } }] });
        expect(problems({ "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": json, "kic-helm:fqdn": "mara.example.com" })).toEqual([]);
        expect(problems({ "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": KUBECONFIG_TEXT, "kic-helm:fqdn": "mara.example.com" })).toEqual([]);
    });
});

describe("the cluster name is refused once, with the limit that applies", () => {
    it.each([
        ["aws", {}, 40],
        ["digitalocean", DO, 40],
        ["linode", LKE, 32],
    ] as const)("on %s: its own maximum, whatever the length", (_type, stack, max) => {
        const base = { "kubernetes:infra_type": "aws", "aws:region": "us-east-1", ...stack };
        expect(problems({ ...base, "mara:clusterName": "a".repeat(max) })).toEqual([]);
        for (const n of [max + 1, 101, 5_000]) {
            const found = problems({ ...base, "mara:clusterName": "a".repeat(n) });
            expect(found, String(n)).toHaveLength(1);
            expect(found[0]).toContain(`is ${n} characters long, too long to name a new cluster. Allowed: lower-case letters, digits and '-', starting and ending with a letter or digit, at most ${max} characters`);
        }
    });

    it("on an existing cluster, any text up to 100 characters", () => {
        const base = { "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": KUBECONFIG_TEXT, "kic-helm:fqdn": "mara.example.com" };
        expect(problems({ ...base, "mara:clusterName": `Lab Cluster ${"x".repeat(88)}` })).toEqual([]);
        expect(problems({ ...base, "mara:clusterName": "x".repeat(101) })[0]).toContain("is 101 characters long. Allowed: any text up to 100 characters (the stack's label for the existing cluster)");
    });
});

describe("a fix hint never suggests a Kubernetes version the cloud does not offer on that day", () => {
    /** The value a fix sets for `key`, when the fix sets one. */
    const setBy = (fix: string, key: string) => new RegExp(`pulumi config set ${key.replace(/[.:]/g, "\\$&")} ([^\\s,;]+)`).exec(fix)?.[1];
    const DAYS = ["2026-11-20", "2027-02-27", "2027-03-01", "2027-07-01", "2027-11-01", "2028-04-01", "2029-01-01"];
    const CASES: { stack: Record<string, string>; key: string; versions: (string | undefined)[] }[] = [
        { stack: { "kubernetes:infra_type": "aws", "aws:region": "us-east-1" }, key: "eks:k8s_version", versions: ["1.28", "1.99"] },
        { stack: { ...LKE }, key: "linode:k8s_version", versions: ["1.20", "1.99", undefined] },
        { stack: { ...DO }, key: "docean:k8s_version", versions: ["1.99.1-do.0"] },
    ];

    it.each(DAYS)("on %s", (day) => {
        const today = new Date(`${day}T00:00:00Z`);
        for (const { stack, key, versions } of CASES) {
            for (const version of versions) {
                const values = { ...stack };
                if (version === undefined) delete values[key];
                else values[key] = version;
                const found = validateConfig(rawConfig(values, { today })).problems.filter((p) => p.key === key);
                expect(found, `${key} = ${version} on ${day}`).not.toEqual([]);
                for (const p of found) {
                    const suggested = setBy(p.fix, key) ?? setBy(p.fix, KEYS.lkeK8sVersion.key);
                    if (suggested === undefined || suggested.startsWith("'<")) {
                        // No version offered on that day: the fix says where to look instead of naming one.
                        expect(p.fix).toMatch(/update this program|versions-list/);
                        continue;
                    }
                    const again = validateConfig(rawConfig({ ...values, [key]: suggested }, { today })).problems.filter((q) => q.key === key);
                    expect(again.map(formatProblem), `${key} = ${version} on ${day}: the fix suggests ${suggested}`).toEqual([]);
                }
            }
        }
    });

    it("LKE is not told to use a release younger than the weeks LKE takes to offer it", () => {
        // 1.37 came out upstream at the end of August 2026; days later LKE does not offer it yet, so the tested 1.35 is named.
        const found = validateConfig(rawConfig({ ...LKE, "linode:k8s_version": "1.20" }, { today: new Date("2026-09-01T00:00:00Z") })).problems;
        expect(found[0]!.fix).toBe("pulumi config set linode:k8s_version 1.35");
        // After 1.35's end of life, the newest release that has been out for two months.
        const later = validateConfig(rawConfig({ ...LKE, "linode:k8s_version": "1.20" }, { today: new Date("2027-07-01T00:00:00Z") })).problems;
        expect(later[0]!.fix).toBe("pulumi config set linode:k8s_version 1.37");
    });
});
