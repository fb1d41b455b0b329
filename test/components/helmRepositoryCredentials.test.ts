/**
 * A chart mirror's credential in `mara:<chart>HelmRepoUrl` never reaches the state in plain text: `user:password@`
 * becomes Helm's basic-auth options with the password secret, any other credential (a token as the user, a token in
 * the query) makes the whole URL secret, and a URL without one is stored as it is. An oci:// reference with a
 * credential is refused by validation, since Helm reads a registry's credentials only from its login.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CertManager } from "../../components";
import { repositoryOptions } from "../../components/helmRelease";
import { CHARTS } from "../../contracts";
import { formatProblem, validateConfig } from "../../config";
import { rawConfig } from "../support/config";
import { testProvider } from "../support/k8s";
import { find, installMocks, plainStrings, promiseOf, Registration, settle, unwrapSecrets } from "../support/mocks";
import * as pulumi from "@pulumi/pulumi";

const PASSWORD = "mirror-Passw0rd/with@signs";
const TOKEN = "glpat-OnlyTheTokenAsUser42";

describe("a chart mirror's credential in the state", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const chart = { ...CHARTS.certManager, repositoryUrl: `https://mirror:${encodeURIComponent(PASSWORD)}@charts.example.com/jetstack` };
        new CertManager("cert-manager", { acme: { email: "ops@example.com" }, chart }, { providers: [testProvider()] });
        await settle();
    });

    it("user:password@ becomes Helm's username and a secret password, the URL without them", () => {
        const inputs = find(regs, "kubernetes:helm.sh/v3:Release", "cert-manager-release").inputs!;
        expect(unwrapSecrets(inputs.repositoryOpts)).toEqual({ repo: "https://charts.example.com/jetstack", username: "mirror", password: PASSWORD });
        const plain = plainStrings(inputs).join("\n");
        expect(plain).not.toContain(PASSWORD);
        expect(plain).not.toContain(encodeURIComponent(PASSWORD));
    });
});

describe("repositoryOptions", () => {
    it("leaves a URL without a credential as it is, in plain text", () => {
        expect(repositoryOptions("https://charts.jetstack.io")).toEqual({ repo: "https://charts.jetstack.io" });
    });

    it("makes the whole URL secret when its credential is not a user and password (a token as the user, a token in the query)", async () => {
        for (const url of [`https://${TOKEN}@charts.example.com/fluent`, `https://charts.example.com/elastic?access_token=${TOKEN}`, "https://git@charts.example.com/x"]) {
            const repo = repositoryOptions(url).repo as pulumi.Output<string>;
            expect(pulumi.Output.isInstance(repo), url).toBe(true);
            expect(await pulumi.isSecret(repo), url).toBe(true);
            expect(await promiseOf(repo)).toBe(url);
        }
    });

    it("takes the user information up to the authority's last @, as URL parsers do", async () => {
        const opts = repositoryOptions("https://u:p@ss@charts.example.com/x@y");
        expect(opts.repo).toBe("https://charts.example.com/x@y");
        expect(opts.username).toBe("u");
        expect(await promiseOf(opts.password as pulumi.Output<string>)).toBe("p@ss");
    });
});

describe("mara:<chart>HelmRepoUrl", () => {
    const base = { "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": "~/.kube/config", "kic-helm:fqdn": "mara.example.com" };

    it("refuses a credential in an oci:// reference, naming helm registry login", () => {
        for (const url of [`oci://robot:${TOKEN}@registry.example.com/charts`, `oci://registry.example.com/charts?token=${TOKEN}`]) {
            const problems = validateConfig(rawConfig({ ...base, "mara:prometheusHelmRepoUrl": url })).problems.filter((p) => p.key === "mara:prometheusHelmRepoUrl");
            expect(problems.map(formatProblem).join("\n"), url).toMatch(/helm registry login/);
            expect(problems.map(formatProblem).join("\n"), url).not.toContain(TOKEN);
        }
    });

    it("accepts an https:// mirror with a user and password (the state keeps the password secret, above)", () => {
        const problems = validateConfig(rawConfig({ ...base, "mara:prometheusHelmRepoUrl": `https://mirror:${TOKEN}@charts.example.com/prom` })).problems;
        expect(problems.filter((p) => p.key === "mara:prometheusHelmRepoUrl")).toEqual([]);
    });
});
