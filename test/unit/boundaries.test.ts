/**
 * The edges of every rule, pinned: the value just inside and just past each limit, the spellings a person may use
 * (capitals, spaces around, MARA's words), and relative paths. Where the key table says the rule (whole numbers,
 * fixed choices, true/false), every key of that kind is walked, so a new key is covered when it is added; the other
 * rules have their edges listed one by one, with the field forms the configuration shares with `mara render` and
 * `mara outdated` (contracts/names.ts).
 */
import { describe, expect, it } from "vitest";
import { formatProblem, KEYS, KeySpec, validateConfig } from "../../config";
import { hostnameProblem, hostPortProblem, imageRepositoryProblem, kubernetesNameProblem, urlProblem } from "../../contracts/names";
import { hostPathProblem, volumeSizeBytes } from "../../contracts/patterns";
import { availabilityZonesOf } from "../../config/availabilityZones";
import { parseEndpoints } from "../../cli/outdated/http";
import { aws, rawConfig } from "../support/config";

const SPECS = Object.entries(KEYS) as [string, KeySpec<unknown>][];
const parse = (id: string, raw: string) => (KEYS as Record<string, KeySpec<unknown>>)[id]!.type.parse(raw);

describe("every whole-number key, at both ends", () => {
    const integers = SPECS.filter(([, s]) => s.type.pulumiType === "integer");

    it("there are whole-number keys to check", () => expect(integers.length).toBeGreaterThan(15));

    it.each(integers.map(([id, s]) => [id, s.type.allowed] as const))("%s (%s)", (id, allowed) => {
        const [, min, max] = /from (\d+) to (\d+)/.exec(allowed)!.map(Number);
        expect(parse(id, String(min))).toEqual({ ok: true, value: min });
        expect(parse(id, String(max))).toEqual({ ok: true, value: max });
        expect(parse(id, ` ${max} `)).toEqual({ ok: true, value: max });
        expect(parse(id, String(max! + 1))).toEqual({ ok: false, reason: `is above the maximum of ${max}` });
        expect(parse(id, String(min! - 1))).toEqual({ ok: false, reason: min === 0 ? "is negative" : `is below the minimum of ${min}` });
        expect(parse(id, `${max}.0`)).toEqual({ ok: false, reason: "is not a whole number" });
        expect(parse(id, "1e2")).toEqual({ ok: false, reason: "is not a number" });
    });
});

describe("every key with fixed choices, in any capitals", () => {
    const choices = SPECS.filter(([, s]) => s.type.allowed.startsWith("one of "));

    it.each(choices.map(([id, s]) => [id, s.type.allowed] as const))("%s (%s)", (id, allowed) => {
        for (const written of [...allowed.matchAll(/"([^"]+)"/g)].map((m) => m[1]!)) {
            const exact = parse(id, written);
            expect(exact.ok, written).toBe(true);
            for (const variant of [written.toUpperCase(), written.toLowerCase(), ` ${written} `]) expect(parse(id, variant), variant).toEqual(exact);
        }
        expect(parse(id, "none-of-these").ok).toBe(false);
    });
});

describe("every true/false key", () => {
    const booleans = SPECS.filter(([, s]) => s.type.pulumiType === "boolean");
    /** A stack of an infrastructure type that reads the key. */
    const STACK_OF: Record<string, Record<string, string>> = {
        aws: { "kubernetes:infra_type": "aws", "aws:region": "us-east-1" },
        digitalocean: { "kubernetes:infra_type": "DO", "kic-helm:fqdn": "mara.example.com" },
        linode: { "kubernetes:infra_type": "LKE", "linode:region": "us-central", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.com" },
    };

    it.each(booleans.map(([id, s]) => [id, s.key] as const))("%s: MARA's spellings under a MARA name, exactly true or false under a declared one", (id, key) => {
        const spec = (KEYS as Record<string, KeySpec<unknown>>)[id]!;
        for (const v of ["TRUE", "Yes", "on", "1"]) expect(parse(id, v), v).toEqual({ ok: true, value: true });
        expect(parse(id, "truee").ok).toBe(false);
        const p = validateConfig(rawConfig({ ...STACK_OF[spec.usedOn?.[0] ?? "aws"], [key]: "Yes" })).problems.find((x) => x.key === key);
        // The Pulumi CLI checks a declared boolean before the program runs, and only true and false pass.
        if (spec.default !== undefined && key.startsWith("mara:")) expect(p?.problem).toMatch(/^is refused by the Pulumi CLI before the program starts/);
        else expect(p).toBeUndefined();
    });
});

describe("names and forms", () => {
    it.each([
        ["siriusNamespace", "a".repeat(63), "a".repeat(64)],
        ["siriusNamespace", "bos-2", "Bos"],
        ["siriusNamespace", "b", "bos-"],
        ["siriusAccountsDb", "a".repeat(63), "a".repeat(64)],
        ["siriusAccountsDb", "_db", "1db"],
        ["siriusAccountsAdmin", "admin", "Admin"],
        ["siriusImageTag", `v${"1".repeat(127)}`, `v${"1".repeat(128)}`],
        ["siriusImageTag", "v1.3.0", ".v1"],
        ["siriusDemoUser", "u".repeat(64), "u".repeat(65)],
        ["siriusDemoUser", "test.user@bank", "test user"],
        ["acmeEmail", "OPS@EXAMPLE.COM", "ops@example"],
        ["eksVersion", "1.35", "1.350"],
        ["eksVersion", "1.9", "v1.35"],
        ["lkeK8sVersion", "1.35", "1.35.0"],
        ["doK8sVersion", "latest", "LATEST"],
        ["doK8sVersion", "1.35.1-do.0", "1.35.1"],
        ["certManagerChartVersion", "v1.21.1", "V1.21.1"],
        ["prometheusChartVersion", "88.5.3-rc.1", "88.5"],
        ["storageClass", "gp3.fast", "GP3"],
        ["storageClass", "a", "gp3-"],
        ["logstoreVersion", "8.0.0", "7.17.3"],
        ["vpcCidr", "10.255.0.0/16", "10.256.0.0/16"],
        ["vpcCidr", "192.168.0.0/16", "192.169.0.0/16"],
        ["awsRegion", "us-east-1", "US-EAST-1"],
        ["doRegion", "sfo3", "SFO3"],
        ["lkeRegion", "us-central", "US-Central"],
        ["registryServer", "registry.example.com:65535", "registry.example.com:65536"],
        ["registryServer", "localhost:5000", "ghcr.io/org"],
        ["registryRepository", "org/nginx-ingress", "Org/nginx-ingress"],
        ["ingressImageName", "registry.example.com:5000/team/image:tag", "https://registry.example.com/team/image:tag"],
        ["ingressImageName", "nginx/nginx-ingress@sha256:" + "a".repeat(64), "nginx/nginx-ingress@sha256:" + "a".repeat(63)],
        ["prometheusHelmRepoUrl", "oci://ghcr.io/charts", "ftp://charts.example.com"],
        ["acmeServer", "https://localhost:14000/dir", "http://acme.example.com/dir"],
        ["logstoreStorageSize", "1Mi", "0Mi"],
        ["logstoreStorageSize", "0.5Gi", "0.0Gi"],
        ["logstoreStorageSize", " 10Gi ", "10gi"],
        ["logstoreStorageSize", "1.5Ti", "10GiB"],
        ["clusterName", "c", ""],
        ["ingressSrcUrl", "./kubernetes-ingress#v5.5.4", "https://github.com/nginx/kubernetes-ingress.git #v5.5.4"],
    ])("%s: %j is accepted, %j is not", (id, good, bad) => {
        expect(parse(id, good), good).toMatchObject({ ok: true });
        expect(parse(id, bad), bad).toMatchObject({ ok: false });
    });

    it("a region in capitals is refused with the region in lower case", () => {
        expect(parse("awsRegion", "US-EAST-1")).toEqual({ ok: false, reason: "is not an AWS region; did you mean us-east-1?" });
        expect(parse("lkeRegion", "US-Central")).toEqual({ ok: false, reason: "is not a Linode region; did you mean us-central?" });
    });

    it("host names: capitals and a final dot are the same name; one character past each limit is not", () => {
        expect(parse("fqdn", "MARA.Example.COM.")).toEqual({ ok: true, value: "mara.example.com" });
        expect(hostnameProblem(`${"a".repeat(63)}.example.com`)).toBeUndefined();
        expect(hostnameProblem(`${"a".repeat(64)}.example.com`)).toBe('has a label of 64 characters ("aaaaaaaaaaaaaaaaaaaa…"; at most 63)');
        expect(hostnameProblem("example.123")).toBe("ends in a numeric label, which no top-level domain is");
        expect(hostnameProblem("mara.example.com\n")).toBe("contains white space or control characters");
        expect(hostnameProblem("2001:db8::1")).toBe("is an IP address, and an Ingress host or certificate name must be a DNS name");
    });

    it("host[:port], URLs, image repositories and Kubernetes names, as validation, render and outdated read them", () => {
        expect(hostPortProblem("registry.example.com:1")).toBeUndefined();
        expect(hostPortProblem("registry.example.com:0")).toBe('has an invalid port "0" (1 to 65535)');
        expect(hostPortProblem("https://ghcr.io")).toBe("starts with a URL scheme (give the host alone, such as registry.example.com:5000)");
        expect(urlProblem("https://https://x.example", ["https"])).toBe("repeats the scheme");
        expect(urlProblem("https://charts.example.com/a b", ["https"])).toBe("contains white space or control characters");
        expect(imageRepositoryProblem("registry.example.com/team/app", { registry: true })).toBeUndefined();
        expect(imageRepositoryProblem("team/app", { registry: true })).toBe("names no registry host (such as registry.example.com/team/image)");
        expect(kubernetesNameProblem("a".repeat(253), "subdomain")).toBeUndefined();
        expect(kubernetesNameProblem("a".repeat(254), "subdomain")).toBe("is 254 characters long (at most 253)");
        expect(kubernetesNameProblem("a".repeat(64), "label")).toBe("is 64 characters long (at most 63)");
        expect(kubernetesNameProblem("a.b", "label")).toBe("has characters or a form Kubernetes refuses in a name");
        // mara outdated's endpoint overrides use the same rules.
        expect(() => parseEndpoints("ghcr.io:70000=https://mirror.example.com")).toThrow('it has a host that has an invalid port "70000" (1 to 65535)');
        expect(() => parseEndpoints("ghcr.io=ftp://mirror.example.com")).toThrow('it has a base URL that uses the unsupported scheme "ftp:"');
        expect(parseEndpoints("GHCR.io=https://mirror.example.com/").get("ghcr.io")).toBe("https://mirror.example.com");
    });

    it("sizes: the units Kubernetes writes, in bytes", () => {
        expect(volumeSizeBytes("1Mi")).toBe(2 ** 20);
        expect(volumeSizeBytes("16Ti")).toBe(16 * 2 ** 40);
        expect(volumeSizeBytes("1.5Gi")).toBe(1.5 * 2 ** 30);
        expect(volumeSizeBytes("16TB")).toBeUndefined();
    });
});

describe("paths", () => {
    it.each([
        ["/var/log/containers", undefined],
        ["var/log/containers", "is not an absolute path"],
        ["./var/log", "is not an absolute path"],
        ["../log", "is not an absolute path"],
        ["~/logs", "is not an absolute path"],
        ["/var/log/", "contains an empty segment ('//' or a trailing '/')"],
        ["/var//log", "contains an empty segment ('//' or a trailing '/')"],
        ["/var/log/containers/..", "contains '.' or '..' segments"],
        ["/var/./log", "contains '.' or '..' segments"],
        ["/VAR", undefined],
        ["/var", "is a system directory of the node, which must never be mounted into a pod"],
        ["/var/log containers", "contains characters other than letters, digits, '.', '_', '-' and '/'"],
    ])("container log path %j", (p, problem) => {
        expect(hostPathProblem(p)).toBe(problem);
    });

    it("a relative kubeconfig path is relative to the project directory, with or without ./", () => {
        for (const written of ["kube/config", "./kube/config", "sub/../kube/config"]) {
            const result = validateConfig(rawConfig({ "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": written, "kic-helm:fqdn": "mara.example.com" }, { files: ["/project/kube/config"], baseDir: "/project" }));
            expect(result.problems.map(formatProblem), written).toEqual([]);
        }
        const outside = validateConfig(rawConfig({ "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": "../kube/config", "kic-helm:fqdn": "mara.example.com" }, { files: ["/project/kube/config"], baseDir: "/project" }));
        expect(outside.problems.map(formatProblem)[0]).toContain('kubernetes:kubeconfig = "../kube/config": names a file that does not exist (resolved to /kube/config)');
    });
});

describe("limits that span keys or depend on the cloud", () => {
    it("zones: exactly as many as the region has, not one more", () => {
        for (const region of ["us-east-1", "us-west-1", "eu-west-1", "ap-northeast-2"]) {
            const n = availabilityZonesOf(region).length;
            const at = (count: number) => validateConfig(aws({ "aws:region": region, "mara:vpcAzCount": String(count) })).problems.filter((p) => p.key === "mara:vpcAzCount");
            if (n <= 6) expect(at(n), `${region} ${n}`).toEqual([]);
            if (n < 6) expect(at(n + 1)[0]?.problem, `${region} ${n + 1}`).toContain(`and ${region} has ${n} a new VPC can use`);
        }
    });

    it("volumes: each cloud's largest, and one Gi more", () => {
        const size = (stack: Record<string, string>, s: string) => validateConfig(rawConfig({ ...stack, "mara:prometheusStorageSize": s })).problems.filter((p) => p.key === "mara:prometheusStorageSize").length;
        const AWS = { "kubernetes:infra_type": "aws", "aws:region": "us-east-1" };
        const DO = { "kubernetes:infra_type": "DO", "kic-helm:fqdn": "mara.example.com" };
        expect([size(AWS, "16Ti"), size(AWS, "16385Gi"), size(AWS, "0.5Gi")]).toEqual([0, 1, 0]);
        expect([size(DO, "1Gi"), size(DO, "1023Mi"), size(DO, "16384Gi"), size(DO, "16385Gi")]).toEqual([0, 1, 0, 1]);
        // A StorageClass of your own on AWS may be io2, whose volumes go to 64Ti.
        expect([size({ ...AWS, "mara:storageClass": "io2" }, "64Ti"), size({ ...AWS, "mara:storageClass": "io2" }, "65Ti")]).toEqual([0, 1]);
    });

    it("node group: the minimum may equal the maximum and the desired size sit on either", () => {
        const problemsOf = (v: Record<string, string>) => validateConfig(aws(v)).problems.map(formatProblem);
        expect(problemsOf({ "eks:min_size": "5", "eks:max_size": "5", "eks:desired_capacity": "5" })).toEqual([]);
        expect(problemsOf({ "eks:min_size": "6", "eks:max_size": "5" })[0]).toContain('eks:min_size = "6": is greater than eks:max_size (5)');
        expect(problemsOf({ "eks:min_size": "2", "eks:max_size": "5", "eks:desired_capacity": "6" })[0]).toContain('eks:desired_capacity = "6": is outside [2, 5]');
    });
});
