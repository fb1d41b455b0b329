/**
 * Stacks created before the Platform's children were named after it (`secrets`, `cert-manager`, ... under
 * `platform`; now `platform-secrets`, `platform-cert-manager`, ...) must update in place: every resource
 * such a stack holds is matched by a resource of the current program, through its URN or one of its
 * aliases, and nothing is created or deleted. The old URNs were recorded from the program before the
 * rename (test/fixtures/urns-before-platform-child-names.json), with the engine's URNs: the whole parent
 * type chain, e.g. `mara:platform:Platform$mara:addons:CertManager$kubernetes:helm.sh/v3:Release`.
 *
 * The aliases are resolved to URNs by the SDK itself, as it does for an engine without alias specs; that
 * includes the aliases children inherit from a renamed parent (a child named `<parent>-x` is also looked
 * for as `<parent's old name>-x` under the parent's old URN), which the engine derives the same way.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import type { RawConfig } from "../../config";
import { aws, fixture, FIXTURES } from "../support/config";
import type { Registration } from "../support/mocks";
import { runProgram } from "../support/program";

const RECORDED = JSON.parse(fs.readFileSync(path.join(FIXTURES, "urns-before-platform-child-names.json"), "utf8")) as Record<string, string[]>;

/** The stacks whose URNs were recorded; the same config as when they were. */
const SCENARIOS: Record<string, () => RawConfig> = {
    "canonical-aws": () => fixture("canonical-aws"),
    "mara-aws": () => fixture("mara-aws"),
    "mara-do": () => fixture("mara-do"),
    "mara-lke": () => fixture("mara-lke"),
    "mara-kubeconfig": () => fixture("mara-kubeconfig"),
    "minimal-aws": () => fixture("minimal-aws"),
    // Every optional child on: the ACME issuer, the NGINX Plus license Secret, the VirtualServer, protected data.
    "aws-acme-plus-virtualserver": () =>
        aws(
            {
                "mara:tlsIssuer": "acme",
                "mara:acmeEmail": "ops@example.com",
                "mara:fqdn": "mara.example.com",
                "mara:siriusRouting": "virtualserver",
                "mara:ingressEnablePlus": "true",
                "mara:nginxJwt": "jwt",
                "mara:ingressImageName": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4",
                "mara:protectData": "true",
                "mara:retainVolumes": "true",
            },
            { secret: ["mara:nginxJwt"] },
        ),
};

/**
 * Resources added to the program after the URNs were recorded, by type and name: an update of such a stack
 * creates them, and nothing else. Each entry says which change added it.
 */
const ADDED_SINCE_RECORDING: readonly { type: string; name: RegExp; why: string }[] = [
    { type: "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinitionPatch", name: /^platform-(prometheus|ingress-controller)-crd-[a-z0-9.-]+$/, why: "the charts' crds/ applied with the chart" },
    { type: "kubernetes:core/v1:ConfigMap", name: /^(platform-prometheus-dashboard-nginx|bank-of-sirius-dashboard|bank-of-sirius-dashboard-databases)$/, why: "Grafana dashboards" },
    { type: "kubernetes:core/v1:ConfigMap", name: /^platform-logstore-kibana-setup-files$/, why: "Kibana's saved objects" },
    { type: "kubernetes:batch/v1:Job", name: /^platform-logstore-kibana-setup$/, why: "Kibana's saved objects" },
    { type: "aws:kms/key:Key", name: /^eks-secrets$/, why: "EKS Secrets encrypted with a KMS key (the aws-eks-secrets-encryption rule)" },
    { type: "pulumi-nodejs:dynamic:Resource", name: /^platform-ownership$/, why: "the ownership guard every Kubernetes object waits for (components/ownership/)" },
    { type: "kubernetes:monitoring.coreos.com/v1:PrometheusRule", name: /^(platform-prometheus|bank-of-sirius)-alerts-[a-z]+$/, why: "the platform's alert rules (docs/alerts.md)" },
    { type: "kubernetes:monitoring.coreos.com/v1:ServiceMonitor", name: /^platform-prometheus-cert-manager$/, why: "cert-manager scraped for the certificate alerts" },
];

/**
 * Resources replaced on purpose, not renamed: IngressControllerImage's `docker.Image` (which pulled with the host's `docker login`
 * only and could not pass BuildKit secrets) became a pull or build, a tag and a push (issue 14). Deleting the old
 * `docker.Image` removes nothing from the registry (its documentation: it does not delete tags), so the update
 * pushes the same image again under the new resources and the cluster keeps running it.
 */
const REPLACED_OLD = /\$mara:registry:KicImage\$docker:index\/image:Image::/;
const REPLACED_NEW = /\$mara:registry:IngressControllerImage\$docker:index\/(remoteImage:RemoteImage|tag:Tag|registryImage:RegistryImage)::/;

/** For each old URN, the current resources that answer to it (by URN or alias). */
function matches(old: readonly string[], regs: readonly Registration[]): Map<string, Registration[]> {
    const out = new Map(old.map((u) => [u, [] as Registration[]]));
    for (const r of regs) {
        for (const u of new Set([r.urn!, ...(r.aliases ?? [])])) out.get(u)?.push(r);
    }
    return out;
}

describe.each(Object.keys(SCENARIOS))("a stack created before the rename (%s)", (scenario) => {
    it("updates in place: each old resource is matched by exactly one current resource, and nothing is new", async () => {
        const run = await runProgram(SCENARIOS[scenario]!(), { engineUrns: true });
        expect(run.error).toBeUndefined();
        const recorded = RECORDED[scenario]!;
        expect(recorded.length).toBeGreaterThan(70);
        const old = recorded.filter((u) => !REPLACED_OLD.test(u));
        const current = run.registrations.filter((r) => !REPLACED_NEW.test(r.urn!));

        const found = matches(old, current);
        const unmatched = old.filter((u) => found.get(u)!.length === 0);
        const ambiguous = old.filter((u) => found.get(u)!.length > 1);
        expect(unmatched, "old resources the update would delete").toEqual([]);
        expect(ambiguous, "old resources claimed twice").toEqual([]);

        const oldSet = new Set(old);
        const created = current.filter((r) => ![r.urn!, ...(r.aliases ?? [])].some((u) => oldSet.has(u)));
        const added = created.filter((r) => ADDED_SINCE_RECORDING.some((a) => a.type === r.type && a.name.test(r.name)));
        expect(created.filter((r) => !added.includes(r)).map((r) => r.urn), "resources the update would create").toEqual([]);
        // kube-prometheus-stack's 10 CRDs and nginx-ingress's 12, in every scenario: mara-aws pins MARA's 2022 charts,
        // which are read as the program's pins.
        expect(added.filter((r) => r.type.endsWith("CustomResourceDefinitionPatch"))).toHaveLength(22);
        // Three dashboards, the Kibana setup's ConfigMap and Job, the ownership guard, on EKS the Secrets key, five
        // PrometheusRules and cert-manager's ServiceMonitor (docs/alerts.md).
        expect(added.filter((r) => !r.type.endsWith("CustomResourceDefinitionPatch")).map((r) => r.name).sort()).toEqual(
            [
                "bank-of-sirius-alerts-application",
                "bank-of-sirius-alerts-database",
                "bank-of-sirius-dashboard",
                "bank-of-sirius-dashboard-databases",
                ...(current.some((r) => r.type === "eks:index:Cluster") ? ["eks-secrets"] : []),
                "platform-logstore-kibana-setup",
                "platform-logstore-kibana-setup-files",
                "platform-ownership",
                "platform-prometheus-alerts-certificates",
                "platform-prometheus-alerts-ingress",
                "platform-prometheus-alerts-logstore",
                "platform-prometheus-cert-manager",
                "platform-prometheus-dashboard-nginx",
            ],
        );
        expect(current).toHaveLength(old.length + added.length);
        // The replacement is only IngressControllerImage's image, and only where a registry receives it.
        expect(recorded.length - old.length).toBe(run.registrations.length - current.length > 0 ? 1 : 0);
    }, 120_000);
});

/**
 * The ingress controller's image component was `KicImage` (`mara:registry:KicImage`) until 0.2.0 and is
 * `IngressControllerImage` now: a stack deployed with the old type, under the current child names, must update in
 * place too. Its URNs were recorded from the program just before the rename (test/fixtures/urns-before-image-rename.json),
 * with the engine's URNs, as above: the image and its pull, tag and push, under the old type chain.
 */
const BEFORE_IMAGE_RENAME = JSON.parse(fs.readFileSync(path.join(FIXTURES, "urns-before-image-rename.json"), "utf8")) as Record<string, string[]>;

describe.each(Object.keys(BEFORE_IMAGE_RENAME))("a stack created before the image component's rename (%s)", (scenario) => {
    it("updates in place: each old resource is matched by exactly one current resource, and nothing is new", async () => {
        const run = await runProgram(SCENARIOS[scenario]!(), { engineUrns: true });
        expect(run.error).toBeUndefined();
        const old = BEFORE_IMAGE_RENAME[scenario]!;
        const found = matches(old, run.registrations);
        expect(old.filter((u) => found.get(u)!.length === 0), "old resources the update would delete").toEqual([]);
        expect(old.filter((u) => found.get(u)!.length > 1), "old resources claimed twice").toEqual([]);
        const oldSet = new Set(old);
        expect(run.registrations.filter((r) => ![r.urn!, ...(r.aliases ?? [])].some((u) => oldSet.has(u))).map((r) => r.urn), "resources the update would create").toEqual([]);
        // Each scenario has a registry, so it holds the image and its three children under the old type.
        expect(old.filter((u) => u.includes("$mara:registry:KicImage")), "the recorded image and its children").toHaveLength(4);
    }, 120_000);
});

describe("the aliases", () => {
    it("are needed: without them the renamed children would be replaced", async () => {
        const run = await runProgram(SCENARIOS["minimal-aws"]!(), { engineUrns: true });
        const current = new Set(run.registrations.map((r) => r.urn));
        const renamed = RECORDED["minimal-aws"]!.filter((u) => !current.has(u));
        // The eight add-ons, the StorageClass and everything inside the add-ons.
        expect(renamed.length).toBeGreaterThan(25);
        expect(renamed).toContain("urn:pulumi:dev::mara::mara:platform:Platform$mara:platform:Secrets::secrets");
        expect(renamed).toContain(
            "urn:pulumi:dev::mara::mara:platform:Platform$mara:addons:CertManager$kubernetes:helm.sh/v3:Release::cert-manager-release",
        );
        expect(renamed).toContain("urn:pulumi:dev::mara::mara:platform:Platform$kubernetes:storage.k8s.io/v1:StorageClass::storage-class");
    }, 120_000);
});
