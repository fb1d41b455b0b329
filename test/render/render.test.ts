/**
 * The render tier over every infra fixture, as `pulumi up` (normal) and a first `pulumi preview` (unknown
 * outputs) would run it: each Helm release rendered by Helm 3 from the vendored chart, and everything checked
 * by the rules Helm and the Kubernetes API server apply (tier.ts). A fixture passes when nothing is found,
 * except a known defect listed below with the issue that owns it; a known defect that stops reproducing fails
 * too, so the list cannot go stale.
 */
import * as fs from "fs";
import { describe, expect, it } from "vitest";
import { fixture, FIXTURES } from "../support/config";
import { runProgram } from "../support/program";
import { releasesOf } from "../../render/collect";
import { checkRun, Finding, SKIPPED_SCHEMA_REFS } from "./tier";

const SECRETS = {
    "mara:grafanaAdminPassword": "grafana-pw",
    "mara:siriusAccountsPassword": "accounts-pw",
    "digitalocean:token": "do-token",
    "linode:token": "linode-token",
    "sirius:accounts_pwd": "accounts-pw",
    "linode:harbor_password": "harbor-pw",
};
const INFRA_FIXTURES = fs
    .readdirSync(FIXTURES)
    .map((f) => /^Pulumi\.(.+)\.yaml$/.exec(f)?.[1])
    .filter((f): f is string => f !== undefined)
    .sort();

/**
 * Defects the tier finds that belong to another issue, by fixture: the findings expected, as `rule subject`.
 * Empty: MARA's own example file (mara-aws), which pins MARA's 2022 charts and images, deploys with those pins
 * read as the versions the platform is tested with (config/legacyPins.ts), so it renders clean too.
 */
const KNOWN_DEFECTS: Record<string, string[]> = {};

const summary = (findings: Finding[]) => findings.map((f) => `${f.rule} ${f.subject}`).sort();
const report = (findings: Finding[]) => findings.map((f) => `[${f.rule}] ${f.subject}: ${f.message}`).join("\n");

describe("render tier: what Helm 3 and Kubernetes 1.35 say about each fixture", () => {
    it("covers every fixture stack file", () => {
        expect(INFRA_FIXTURES).toEqual(["canonical-aws", "mara-aws", "mara-do", "mara-kubeconfig", "mara-lke", "minimal-aws"]);
    });

    for (const name of INFRA_FIXTURES) {
        for (const preview of [false, true]) {
            it(`${name}, ${preview ? "first preview" : "up"}`, async () => {
                const run = await runProgram(fixture(name, { secrets: SECRETS }), { preview });
                expect(run.error).toBeUndefined();
                // Probing for ignored keys needs known values; the normal run of the same fixture does it.
                const findings = await checkRun(run.registrations, { probeIgnoredKeys: !preview });
                const expected = KNOWN_DEFECTS[name] ?? [];
                expect(summary(findings), report(findings)).toEqual(expected);
            }, 300_000);
        }
    }

    it("renders the ingress controller on a first preview: only the image, pushed later, is unknown", async () => {
        const run = await runProgram(fixture("canonical-aws", { secrets: SECRETS }), { preview: true });
        const ingress = releasesOf(run.registrations).find((r) => r.chart === "nginx-ingress")!;
        expect(ingress.valuesUnknown).toBe(false);
        expect(ingress.placeholders.sort()).toEqual(["controller.image.digest", "controller.image.repository"]);
    }, 300_000);

    it("says which remote $refs of a values schema were not checked", () => {
        // nginx-ingress 2.6.4 refers to Kubernetes definitions on the internet; they are accepted as anything here
        // (the rendered objects are validated against Kubernetes' schema instead).
        const skipped = [...(SKIPPED_SCHEMA_REFS.get("nginx-ingress") ?? [])];
        expect(skipped).toContain("io.k8s.api.core.v1.Container");
        expect(skipped).toContain("io.k8s.api.core.v1.SecurityContext");
        expect(skipped.every((r) => r.startsWith("io.k8s."))).toBe(true);
        // No other chart needs the network for its schema.
        expect([...SKIPPED_SCHEMA_REFS.keys()]).toEqual(["nginx-ingress"]);
    });
});
