/**
 * The example under Pulumi mocks: external-dns, an add-on of the program's own, joins the platform from its
 * outputs, and its keys are checked before anything is created, with the platform's messages.
 */
import { ConfigError, validateAddOnKeys } from "mara-platform/config";
import { describe, expect, it } from "vitest";
import externalDnsExample from "../index";

const { externalDns } = externalDnsExample;
import { find, installMocks, type Registration, settle } from "mara-platform/testing";

const KUBECONFIG = JSON.stringify({ apiVersion: "v1", kind: "Config", clusters: [{ name: "c", cluster: { server: "https://203.0.113.1" } }] });
const BASE = { "external-dns-example:kubeconfig": KUBECONFIG, "externalDns:provider": "cloudflare", "externalDns:domainFilters": JSON.stringify(["example.com"]) };
const SECRETS = ["external-dns-example:kubeconfig", "externalDns:apiToken"];

/** Runs the program with `config`; returns what was registered, or the error it stopped with. */
async function run(config: Record<string, string>, secretKeys = SECRETS): Promise<{ regs: Registration[]; error?: unknown }> {
    const { registrations: regs } = await installMocks({ config, project: "external-dns-example", stack: "test", secretKeys });
    try {
        externalDnsExample();
    } catch (error) {
        return { regs, error };
    }
    await settle();
    return { regs };
}

describe("external-dns example", () => {
    it("installs the chart as a child of the platform, with its keys' values and the platform's IngressClass", async () => {
        const { regs, error } = await run({ ...BASE, "externalDns:apiToken": "cf-token-123", "externalDns:policy": "sync" });
        expect(error).toBeUndefined();
        const platform = find(regs, "mara:platform:Platform", "platform");
        const component = find(regs, "example:addons:ExternalDns", "platform-external-dns");
        expect(component.parent).toBe(platform.urn);
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "platform-external-dns-release");
        expect(release.inputs).toMatchObject({
            chart: "external-dns",
            version: "1.17.0",
            repositoryOpts: { repo: "https://kubernetes-sigs.github.io/external-dns/" },
            values: {
                provider: { name: "cloudflare" },
                policy: "sync",
                txtOwnerId: "platform",
                domainFilters: ["example.com"],
                // The platform's IngressClass, an output of the ingress controller's release.
                extraArgs: ["--ingress-class=nginx"],
                env: [{ name: "CF_API_TOKEN", valueFrom: { secretKeyRef: { name: "external-dns-token", key: "token" } } }],
            },
        });
        // The token reaches the pod through a Secret, never the release's values.
        expect(JSON.stringify(release.inputs)).not.toContain("cf-token-123");
        find(regs, "kubernetes:core/v1:Secret", "platform-external-dns-token");
    });

    it("waits for the platform's outputs it uses: the ingress controller's release (its IngressClass) and Prometheus's CRDs", async () => {
        const { regs } = await run({ ...BASE, "externalDns:apiToken": "cf-token-123" });
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "platform-external-dns-release");
        expect(release.dependencies).toContain(find(regs, "kubernetes:helm.sh/v3:Release", "platform-ingress-controller-release").urn);
        // dependsOn a component waits for every resource in it: the SDK lists its children, among them the release with the CRDs.
        expect(release.dependencies).toContain(find(regs, "kubernetes:helm.sh/v3:Release", "platform-prometheus-release").urn);
        // The platform's Kubernetes provider reaches it through the Platform, its parent.
        expect(release.provider).toBe(find(regs, "kubernetes:core/v1:Namespace", "platform-cert-manager-ns").provider);
    });

    it("stops before creating anything on a bad value, naming the key, the value, what is allowed and the fix", async () => {
        const { regs, error } = await run({ ...BASE, "externalDns:apiToken": "cf-token-123", "externalDns:domainFilters": JSON.stringify(["not a domain!"]) });
        expect(error).toBeInstanceOf(ConfigError);
        const message = (error as Error).message;
        expect(message).toContain("nothing was created");
        expect(message).toContain('externalDns:domainFilters = "[\\"not a domain!\\"]"');
        expect(message).toContain("Allowed: a list where each entry is a fully qualified domain name");
        expect(message).toContain("Fix: pulumi config set externalDns:domainFilters");
        expect(regs).toEqual([]);
    });

    it("applies its rule across keys, and never shows the token", async () => {
        const missing = await run(BASE);
        expect((missing.error as Error).message).toContain("externalDns:provider = \"cloudflare\": needs an API token, and externalDns:apiToken is not set");
        // A token stored in plain text draws the platform's warning, with the fix and without the value.
        const raw = { project: "external-dns-example", stack: "test", values: { ...BASE, "externalDns:apiToken": "cf-token-123" }, secretKeys: new Set<string>(), env: {} };
        const plain = validateAddOnKeys(externalDns.keys, raw, externalDns.check);
        expect(plain.problems).toEqual([]);
        expect(plain.warnings).toEqual([expect.stringContaining("externalDns:apiToken is stored in plain text in the stack file; encrypt it: pulumi config set --secret externalDns:apiToken")]);
        expect(plain.warnings.join("\n")).not.toContain("cf-token-123");
    });

    it("refuses an unknown provider with the allowed ones", async () => {
        const { error } = await run({ ...BASE, "externalDns:provider": "route53" });
        expect((error as Error).message).toMatch(/externalDns:provider = "route53": .*Allowed: .*aws.*cloudflare.*digitalocean.*linode/);
    });
});
