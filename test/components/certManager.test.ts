import { beforeAll, describe, expect, it } from "vitest";
import { CertManager } from "../../components";
import { k8sProviderRef, testProvider, validateKubernetesObjects } from "../support/k8s";
import { find, installMocks, promiseOf, Registration, settle } from "../support/mocks";

describe("CertManager", () => {
    let regs: Registration[];
    let cm: CertManager;
    let provider: string;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const k8s = testProvider();
        cm = new CertManager("cert-manager", { acme: { email: "ops@example.com" } }, { providers: [k8s] });
        await settle();
        provider = await k8sProviderRef(k8s);
    });

    it("installs the chart from the catalogue with its CRDs, gated on the webhook start-up check", () => {
        expect(find(regs, "kubernetes:helm.sh/v3:Release", "cert-manager-release").inputs).toMatchObject({
            name: "certmgr",
            namespace: "cert-manager",
            chart: "cert-manager",
            version: "v1.21.1",
            repositoryOpts: { repo: "https://charts.jetstack.io" },
            timeout: 600,
            values: { crds: { enabled: true }, startupapicheck: { enabled: true } },
        });
    });

    it("keeps its CRDs when the release is uninstalled, so a destroy never deletes every Certificate in the cluster", () => {
        // On an existing cluster nothing may delete cert-manager's CRDs (other teams' Certificates use them); on a
        // cluster the stack created, the destroy drain removes them (mara:removeCrds). Helm must never do it.
        const values = find(regs, "kubernetes:helm.sh/v3:Release", "cert-manager-release").inputs!.values as { crds: { keep: boolean } };
        expect(values.crds.keep).toBe(true);
    });

    it("creates the issuers only after the release", () => {
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "cert-manager-release").urn;
        for (const name of ["cert-manager-selfsigned", "cert-manager-acme"]) {
            expect(find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", name).dependencies).toContain(release);
        }
    });

    it("defines a self-signed issuer and an ACME HTTP-01 issuer through the nginx ingress class", async () => {
        expect(find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", "cert-manager-selfsigned").inputs).toMatchObject({
            metadata: { name: "selfsigned-issuer" },
            spec: { selfSigned: {} },
        });
        expect(find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", "cert-manager-acme").inputs!.spec).toEqual({
            acme: {
                server: "https://acme-v02.api.letsencrypt.org/directory",
                email: "ops@example.com",
                privateKeySecretRef: { name: "letsencrypt-account-key" },
                solvers: [{ http01: { ingress: { ingressClassName: "nginx" } } }],
            },
        });
        expect(await promiseOf(cm.selfSignedIssuer)).toBe("selfsigned-issuer");
        expect(await promiseOf(cm.acmeIssuer!)).toBe("letsencrypt");
    });

    it("puts everything on the cluster's provider and passes schema validation", () => {
        for (const r of regs.filter((x) => x.type.startsWith("kubernetes:"))) expect(r.provider, r.name).toBe(provider);
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked).toContain("Namespace/cert-manager-ns");
    });

    it("rejects an ACME email that is not one", async () => {
        await installMocks();
        expect(() => new CertManager("c", { acme: { email: "nobody" } })).toThrow('CertManager: acme.email "nobody" is not an email address');
    });
});
