/**
 * `mara validate`, `plan` and `render` read a stack file without its passphrase, so a secret stored encrypted (`secure:`)
 * reads as a placeholder there. Every secret key takes that placeholder without a problem: its form is checked where
 * Pulumi decrypts it (the program, under `pulumi preview` and `up`), and a key whose own rule refuses the placeholder (an
 * SSH key, a webhook URL, a routing key, a token) must not be reported as malformed for being encrypted, as it should be.
 */
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { ENCRYPTED_PLACEHOLDER, formatProblem, validateConfig } from "../../config";
import { KEYS, KeySpec } from "../../config/keys";
import { stackFile } from "../support/config";

const SECRET_KEYS = (Object.values(KEYS) as KeySpec<unknown>[]).filter((s) => s.secret);
/** Ciphertext of a secrets provider other than the passphrase (a stack file without an encryptionsalt). */
const encrypted = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, { secure: Buffer.from(`ciphertext of ${k}`).toString("base64") }]));

/** The keys the alert receivers need beside their credentials (config/alerting.ts). */
const RECEIVERS = { "mara:alertEmailTo": "oncall@example.com", "mara:alertEmailFrom": "am@example.com", "mara:alertEmailSmarthost": "smtp.example.com:587", "mara:alertEmailUsername": "am", "mara:alertWebhookUrl": "https://hooks.example.com/alerts" };

/** A stack of `infraType` that uses every secret key given, each stored encrypted; its problems and warnings. */
function validate(infraType: string, base: Record<string, string>, keys: string[]) {
    const text = stringify({ config: { "kubernetes:infra_type": infraType, "mara:fqdn": "mara.example.com", ...RECEIVERS, ...base, ...encrypted(keys) } });
    const result = validateConfig(stackFile(text));
    return { problems: result.problems.map(formatProblem), warnings: result.warnings };
}

describe("secrets stored encrypted, read without the passphrase", () => {
    it("the test is not vacuous: some keys' own rules refuse the placeholder", () => {
        const refused = SECRET_KEYS.filter((s) => !s.type.parse(ENCRYPTED_PLACEHOLDER).ok).map((s) => s.key);
        expect(refused).toEqual(expect.arrayContaining([KEYS.gitopsRepoSshPrivateKey.key, KEYS.alertSlackWebhookUrl.key, KEYS.alertPagerdutyRoutingKey.key, KEYS.alertWebhookBearerToken.key]));
    });

    // The operator's delivery reads the repository's credential as Argo CD's does, and its own secrets besides.
    const GITOPS = { "mara:delivery": "operator", "mara:operatorStack": "acme/mara/prod", "mara:gitopsPath": "deploy/prod", "mara:gitopsRepoUrl": "https://git.example.com/org/platform.git", "mara:gitopsRepoUsername": "mara" };
    const REGISTRY = { "mara:registryServer": "ghcr.io", "mara:registryRepository": "my-org/nginx-ingress", "mara:registryUsername": "robot" };
    const PLUS = { "mara:ingressEnablePlus": "true", "mara:ingressImageName": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4" };
    const byInfra: [string, Record<string, string>, (s: KeySpec<unknown>) => boolean][] = [
        ["aws", { "aws:region": "us-east-1", ...GITOPS, ...PLUS }, (s) => s.usedOn === undefined || s.usedOn.includes("aws")],
        ["digitalocean", {}, (s) => s.usedOn?.includes("digitalocean") === true],
        ["linode", { "linode:region": "us-central", "linode:k8s_version": "1.35", ...REGISTRY }, (s) => s.usedOn?.includes("linode") === true],
    ];
    // Keys used on no type (MARA's Harbor passwords) are named as not used, and not checked, whatever their form.
    it.each(byInfra)("%s: every secret key it reads, encrypted, gets no problem and no warning about it", (infraType, base, reads) => {
        // The SSH key and the password are two ways in to the same repository; they exclude each other (the SSH key: below).
        const keys = SECRET_KEYS.filter(reads).map((s) => s.key).filter((k) => k !== KEYS.gitopsRepoSshPrivateKey.key);
        expect(keys.length).toBeGreaterThan(0);
        const { problems, warnings } = validate(infraType, base, keys);
        expect(problems).toEqual([]);
        for (const key of keys) expect(warnings.filter((w) => w.includes(key))).toEqual([]);
    });

    it("an SSH key for the GitOps repository, encrypted, is taken offline", () => {
        const key = KEYS.gitopsRepoSshPrivateKey.key;
        const { problems, warnings } = validate("aws", { "aws:region": "us-east-1", "mara:delivery": "gitops", "mara:gitopsPath": "deploy/prod", "mara:gitopsRepoUrl": "git@git.example.com:org/platform.git" }, [key]);
        expect(problems).toEqual([]);
        expect(warnings.filter((w) => w.includes(key))).toEqual([]);
    });

    it("a secret in plain text is still checked by its rule", () => {
        const text = stringify({ config: { "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "mara:fqdn": "mara.example.com", "mara:delivery": "gitops", "mara:gitopsPath": "deploy/prod", "mara:gitopsRepoUrl": "git@git.example.com:org/platform.git", [KEYS.gitopsRepoSshPrivateKey.key]: ENCRYPTED_PLACEHOLDER } });
        expect(validateConfig(stackFile(text)).problems.map(formatProblem).join("\n")).toContain(`${KEYS.gitopsRepoSshPrivateKey.key}: is not a PEM private key`);
    });
});
