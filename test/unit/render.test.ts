/**
 * The pure parts of `mara render`: deploy-time values from stack outputs, file names in a component folder, where
 * Helm comes from when the checkout has no toolchain copy, and a chart version nobody vendored (fetched once by
 * `helm pull` into the cache, or a clear error when that fails).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { archiveName, chartArchive, chartCacheDir, ChartUnavailableError, CHARTS_DIR } from "../../render/charts";
import { DEPLOY_VALUES, deployValues, PLACEHOLDER_PATTERN, placeholdersIn } from "../../render/deployValues";
import { helmBinary, HelmMissingError } from "../../render/helm";
import { layoutFiles, PlacedObject } from "../../render/layout";
import { assertWritable } from "../../render/render";
import { externalSecretFor, remoteKey, SecretHandling, secretListFile, StoreProvider, withoutSecretValues } from "../../render/secrets";
import { imageProblem, ingressHostProblem } from "../../render/sync/fields";

const made: string[] = [];
const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "mara-render-unit-"));
    made.push(d);
    return d;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("deploy-time values", () => {
    it("come from the stack outputs that give them, and only when the run asks for them", () => {
        const v = deployValues({ repository_url: "reg.example/mara", kic_image_digest: `sha256:${"a".repeat(64)}`, lb_ingress_hostname: "lb.example" });
        expect(v.value("registryRepository")).toBe("reg.example/mara");
        expect(v.value("kicImageDigest")).toBe(`sha256:${"a".repeat(64)}`);
        expect([...v.fromStack].sort()).toEqual(["kicImageDigest", "registryRepository"]);
        expect(v.value("loadBalancerIp")).toBe("192.0.2.1");
    });

    it("a secret output ([secret]), an empty one, a digest that is not sha256 with 64 hex digits, and a missing one stay placeholders", () => {
        const v = deployValues({ lb_ingress_hostname: "[secret]", repository_url: "", kic_image_digest: `sha256:${"a".repeat(63)}` });
        expect(v.value("loadBalancerHostname")).toBe(DEPLOY_VALUES.loadBalancerHostname.placeholder);
        expect(v.value("registryRepository")).toBe(DEPLOY_VALUES.registryRepository.placeholder);
        expect(v.value("kicImageDigest")).toBe(DEPLOY_VALUES.kicImageDigest.placeholder);
        expect(v.value("loadBalancerIp")).toBe(DEPLOY_VALUES.loadBalancerIp.placeholder);
        expect(v.fromStack.size).toBe(0);
        expect(deployValues(undefined).value("registryEndpoint")).toBe("registry-endpoint.mara-placeholder.invalid");
    });

    it("a DOCR registry endpoint is the repository URL without its /nginx-ingress repository", () => {
        expect(deployValues({ repository_url: "registry.digitalocean.com/mara-x7/nginx-ingress" }).value("registryEndpoint")).toBe("registry.digitalocean.com/mara-x7");
    });

    it("placeholders are found, also where a chart changed their case", () => {
        expect(placeholdersIn(`image: Registry-Repository.mara-placeholder.invalid/nginx-ingress@sha256:${"0".repeat(64)}`)).toEqual(["registryRepository", "kicImageDigest"]);
        expect(placeholdersIn("image: nginx/nginx-ingress:5.5.4")).toEqual([]);
    });

    it("each placeholder has the form of its value, so the API server and the kubelet accept what carries it", () => {
        const image = `${DEPLOY_VALUES.registryRepository.placeholder}@${DEPLOY_VALUES.kicImageDigest.placeholder}`;
        expect(imageProblem(image)).toBeUndefined();
        expect(imageProblem(`${DEPLOY_VALUES.registryEndpoint.placeholder}/nginx-ingress@${DEPLOY_VALUES.kicImageDigest.placeholder}`)).toBeUndefined();
        expect(ingressHostProblem(DEPLOY_VALUES.loadBalancerHostname.placeholder)).toBeUndefined();
        expect(DEPLOY_VALUES.loadBalancerIp.placeholder).toMatch(/^192\.0\.2\.\d+$/);
        // What the placeholders were before: refused at apply (the host) and never pulled (the image).
        expect(ingressHostProblem("MARA_PLACEHOLDER_LB_HOSTNAME")).toBe("must be a lower-case DNS name (RFC 1123 subdomain)");
        expect(imageProblem("MARA_PLACEHOLDER_REGISTRY_REPOSITORY@MARA_PLACEHOLDER_KIC_IMAGE_DIGEST")).toContain("is not a valid image reference");
        // Each is still found in a file, and only what stands for a value is.
        for (const dv of Object.values(DEPLOY_VALUES)) expect(PLACEHOLDER_PATTERN.test(`x: ${dv.placeholder}`)).toBe(true);
        expect(PLACEHOLDER_PATTERN.test("image: nginx/nginx-ingress:5.5.4")).toBe(false);
    });
});

describe("layout", () => {
    const obj = (kind: string, name: string, namespace?: string, apiVersion = "v1"): PlacedObject => ({
        object: { apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}) } },
        component: "c",
        source: "test",
        custom: false,
    });

    it("names a file by kind and name, adding the namespace, then the API group, only where two would collide", () => {
        const files = layoutFiles([obj("ConfigMap", "a", "x"), obj("ConfigMap", "a", "y"), obj("Service", "a", "x"), obj("Certificate", "a", "x", "cert-manager.io/v1"), obj("Certificate", "a", "x", "other.io/v1")], "");
        expect([...files.keys()].sort()).toEqual([
            "c/certificate.cert-manager.io-x-a.yaml",
            "c/certificate.other.io-x-a.yaml",
            "c/configmap-x-a.yaml",
            "c/configmap-y-a.yaml",
            "c/kustomization.yaml",
            "c/service-a.yaml",
            "kustomization.yaml",
        ]);
    });

    it("refuses two declarations of one object", () => {
        expect(() => layoutFiles([obj("ConfigMap", "a", "x"), obj("ConfigMap", "a", "x")], "")).toThrow("two objects would be written as one: v1 ConfigMap x/a appears twice in c");
    });
});

describe("ExternalSecret of a Secret", () => {
    const pull = { apiVersion: "v1", kind: "Secret", type: "kubernetes.io/dockerconfigjson", metadata: { name: "pull", labels: { a: "b" }, annotations: { c: "d" } }, data: { ".dockerconfigjson": "e30=" } };
    const external = (provider: StoreProvider, remoteKeyPrefix: string) => ({ mode: "external", store: "vault", storeKind: "SecretStore", provider, remoteKeyPrefix }) as const;

    it("keeps the Secret's name, type, labels and annotations, and reads each key as a property of one entry per Secret", () => {
        const es = externalSecretFor(pull, "ns", external("vault", "team/"));
        expect(es).toEqual({
            apiVersion: "external-secrets.io/v1",
            kind: "ExternalSecret",
            metadata: { name: "pull", namespace: "ns", labels: { a: "b" } },
            spec: {
                refreshInterval: "1h",
                secretStoreRef: { kind: "SecretStore", name: "vault" },
                target: { name: "pull", creationPolicy: "Owner", template: { type: "kubernetes.io/dockerconfigjson", metadata: { labels: { a: "b" }, annotations: { c: "d" } } } },
                data: [{ secretKey: ".dockerconfigjson", remoteRef: { key: "team/ns/pull", property: ".dockerconfigjson" } }],
            },
        });
    });

    it("names the entry as each provider allows: a path for Vault and AWS Secrets Manager, a hierarchy from / for Parameter Store, no slashes for Google", () => {
        // A Vault KV read without property returns the whole entry as JSON, so every key must name its property.
        const keys = (provider: StoreProvider, prefix: string) => (externalSecretFor(pull, "bos", external(provider, prefix)).spec as { data: { remoteRef: { key: string; property?: string } }[] }).data.map((d) => d.remoteRef);
        expect(keys("vault", "mara/")).toEqual([{ key: "mara/bos/pull", property: ".dockerconfigjson" }]);
        expect(keys("aws-secrets-manager", "mara/")).toEqual([{ key: "mara/bos/pull", property: ".dockerconfigjson" }]);
        expect(keys("aws-parameter-store", "/mara/")).toEqual([{ key: "/mara/bos/pull", property: ".dockerconfigjson" }]);
        expect(keys("gcp-secret-manager", "mara_")).toEqual([{ key: "mara_bos_pull", property: ".dockerconfigjson" }]);
        expect(remoteKey({ provider: "aws-parameter-store", remoteKeyPrefix: "/mara/" }, "bos", "jwt-key")).toBe("/mara/bos/jwt-key");
    });

    it("refuses remote keys the provider cannot hold: a parameter without its leading /, a Google secret with a dot or a slash", () => {
        const secret = (name: string): PlacedObject => ({ object: { apiVersion: "v1", kind: "Secret", metadata: { name, namespace: "bos" }, stringData: { k: "v" } }, component: "c", source: "test", custom: false });
        expect(() => withoutSecretValues([secret("jwt-key")], external("aws-parameter-store", "mara/"))).toThrow(`"mara/bos/jwt-key" is not a valid aws-parameter-store name: a leading '/'`);
        expect(() => withoutSecretValues([secret("tls.cert")], external("gcp-secret-manager", "mara_"))).toThrow(`"mara_bos_tls.cert" is not a valid gcp-secret-manager name`);
        expect(() => withoutSecretValues([secret("jwt-key")], external("gcp-secret-manager", "mara/"))).toThrow(`"mara/bos_jwt-key" is not a valid gcp-secret-manager name`);
        expect(withoutSecretValues([secret("jwt-key")], external("vault", "mara/")).entries[0]!.remoteKey).toBe("mara/bos/jwt-key");
    });
});

describe("Secrets in the output", () => {
    const secret = (name: string, data?: Record<string, string>): PlacedObject => ({
        object: { apiVersion: "v1", kind: "Secret", metadata: { name, namespace: "ns" }, ...(data ? { stringData: data } : {}) },
        component: "c",
        source: `resource ${name}`,
        custom: false,
    });
    const placed = [secret("b", { y: "value-of-y", x: "value-of-x" }), secret("token"), secret("a", { k: "value-of-k" })];

    it("with a store: each Secret with data becomes its ExternalSecret, a Secret without data stays, keys listed in order", () => {
        const handling: SecretHandling = { mode: "external", store: "s", storeKind: "ClusterSecretStore", provider: "aws-secrets-manager", remoteKeyPrefix: "p/" };
        const { objects, entries } = withoutSecretValues(placed, handling);
        expect(objects.map((o) => `${o.object.kind}/${o.object.metadata!.name}`)).toEqual(["ExternalSecret/b", "Secret/token", "ExternalSecret/a"]);
        expect(JSON.stringify(objects)).not.toContain("value-of-");
        expect(secretListFile(entries, handling)).toEqual({
            name: "secret-keys.txt",
            text:
                '# What the ClusterSecretStore "s" (aws-secrets-manager) must hold, one line per Secret key: the remote key of the entry,\n' +
                "# then the Secret (namespace/name) it fills and the key, which is also the entry's property. Each entry is an AWS Secrets Manager secret whose value is a JSON object of the Secret's keys.\n" +
                "# Generated by `mara render`; values are never written here.\n" +
                "p/ns/a\tns/a\tk\np/ns/b\tns/b\tx\np/ns/b\tns/b\ty\n",
        });
    });

    it("omitted: each Secret with data is left out and listed with its keys", () => {
        const { objects, entries } = withoutSecretValues(placed, { mode: "omit" });
        expect(objects.map((o) => `${o.object.kind}/${o.object.metadata!.name}`)).toEqual(["Secret/token"]);
        expect(secretListFile(entries, { mode: "omit" }).text.split("\n").slice(1)).toEqual(["ns/a\tk", "ns/b\tx y", ""]);
    });
});

describe("Helm without the toolchain copy", () => {
    const fakeHelm = (dir: string, version = "v3.17.3") => {
        const file = path.join(dir, "helm");
        fs.writeFileSync(file, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
        return file;
    };

    it("is taken from PATH, and must be Helm 3 there too", () => {
        const dir = tmp();
        const helm = fakeHelm(dir);
        expect(helmBinary({ PATH: `/nonexistent${path.delimiter}${dir}` }, false)).toEqual({ path: helm, version: "v3.17.3" });
        fakeHelm(dir, "v4.1.4");
        expect(() => helmBinary({ PATH: dir }, false)).toThrow(`${helm} is Helm v4.1.4; rendering needs Helm 3`);
    });

    it("missing from PATH too: the error names HELM, PATH and the toolchain", () => {
        expect(() => helmBinary({ PATH: tmp() }, false)).toThrow(HelmMissingError);
        expect(() => helmBinary({ PATH: tmp() }, false)).toThrow(/^No Helm 3 binary: HELM is not set and there is no helm on PATH\. Set HELM=\/path\/to\/helm \(Helm 3\.x\), or put Helm 3 on PATH as `helm`/);
    });
});

describe("a chart version nobody vendored", () => {
    /** A stand-in helm that answers `version`, logs each pull, and "pulls" by copying a vendored archive under the asked name. */
    function pullingHelm(dir: string, ok: boolean): { helm: string; log: string } {
        const log = path.join(dir, "pulls.log");
        const helm = path.join(dir, "helm");
        const source = path.join(CHARTS_DIR, archiveName("fluent-bit", fs.readdirSync(CHARTS_DIR).find((f) => f.startsWith("fluent-bit-"))!.slice("fluent-bit-".length, -4)));
        fs.writeFileSync(
            helm,
            [
                "#!/bin/sh",
                'if [ "$1" = version ]; then echo v3.17.3; exit 0; fi',
                `echo "$@" >> ${log}`,
                ok ? 'while [ $# -gt 0 ]; do if [ "$1" = --destination ]; then dest=$2; fi; shift; done' : "",
                ok ? `cp ${source} "$dest/fluent-bit-9.9.9.tgz"` : 'echo \'Error: looks like "https://fluent.github.io/helm-charts" is not a valid chart repository or cannot be reached: dial tcp: lookup fluent.github.io: no such host\' >&2; exit 1',
            ].join("\n"),
            { mode: 0o755 },
        );
        return { helm, log };
    }
    const cached = path.join(chartCacheDir(), "pulled", "fluent-bit-9.9.9.tgz");
    afterAll(() => fs.rmSync(cached, { force: true }));

    it("without network: an error naming the chart, the vendored versions, the command and where to put the archive", () => {
        fs.rmSync(cached, { force: true });
        const { helm } = pullingHelm(tmp(), false);
        const src = { chart: "fluent-bit", version: "9.9.9", repositoryUrl: "https://fluent.github.io/helm-charts" };
        expect(() => chartArchive(src, { HELM: helm })).toThrow(ChartUnavailableError);
        expect(() => chartArchive(src, { HELM: helm })).toThrow(
            /^chart fluent-bit 9\.9\.9 is not vendored \(vendored: [0-9.]+\) and `helm pull fluent-bit --repo https:\/\/fluent\.github\.io\/helm-charts --version 9\.9\.9` failed: Error: looks like .* no such host\. Fetch it with that command where there is network access and put fluent-bit-9\.9\.9\.tgz in .*pulled, or pin a vendored version\.$/,
        );
    });

    it("pulled once into the cache, then read from there", () => {
        fs.rmSync(cached, { force: true });
        const { helm, log } = pullingHelm(tmp(), true);
        const src = { chart: "fluent-bit", version: "9.9.9", repositoryUrl: "https://fluent.github.io/helm-charts" };
        expect(chartArchive(src, { HELM: helm })).toBe(cached);
        expect(chartArchive(src, { HELM: helm })).toBe(cached);
        expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
        expect(fs.readFileSync(log, "utf8")).toMatch(/^pull fluent-bit --repo https:\/\/fluent\.github\.io\/helm-charts --version 9\.9\.9 --destination /);
    });
});

describe("objects render refuses to write", () => {
    const placed = (name: string | undefined, source: string, namespace = "logstore"): PlacedObject => ({
        object: { apiVersion: "v1", kind: "ConfigMap", metadata: { ...(name ? { name } : {}), namespace } },
        component: "platform-logstore",
        source,
        custom: false,
    });

    it("an object without a name (Pulumi would name it at deploy time), naming where it came from", () => {
        expect(() => assertWritable([placed("kibana-setup-files", "a"), placed(undefined, "Pulumi resource platform-logstore-files (v1 ConfigMap)")])).toThrow(
            /1 object has no name .*ConfigMap from Pulumi resource platform-logstore-files \(v1 ConfigMap\).*metadata\.name/,
        );
    });

    it("the same object declared twice; the same name in another namespace is another object", () => {
        expect(() => assertWritable([placed("files", "release a"), placed("files", "release b")])).toThrow(/logstore\/files is declared twice: by release a and by release b/);
        expect(() => assertWritable([placed("files", "release a"), placed("files", "release b", "prometheus")])).not.toThrow();
    });
});
