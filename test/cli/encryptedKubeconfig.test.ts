/**
 * An existing-cluster stack whose inline kubeconfig is stored encrypted, as credentials should be: a stack file the
 * real Pulumi CLI wrote (test/fixtures/Pulumi.encrypted-kubeconfig.yaml, passphrase provider). `pulumi up` deploys
 * it; `mara validate`, `mara plan` and `mara render` must accept it too. With the stack's passphrase in the
 * environment they decrypt the kubeconfig as Pulumi does and check it as the program does (a broken one fails all
 * of them alike); without it they say what they could not check and go on; with a wrong passphrase they stop where
 * Pulumi would. The same kubeconfig in plain text is warned about, naming the key and the fix, by every run.
 * No run prints any part of the kubeconfig.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseStackFile, validateConfig } from "../../config";
import { decryptOffline } from "../../config/passphraseSecrets";
import { FIXTURES, KUBECONFIG_TEXT, stackFile } from "../support/config";
import { runProgram } from "../support/program";
import { runMara } from "./support/io";

const FIXTURE = path.join(FIXTURES, "encrypted", "Pulumi.encrypted-kubeconfig.yaml");
const TEXT = fs.readFileSync(FIXTURE, "utf8");
const PASSPHRASE = "fixture-passphrase";
/**
 * The fixture kubeconfig with its cluster's server removed, encrypted by `pulumi config set --secret` for the same
 * stack (same encryptionsalt and passphrase): a kubeconfig the program refuses.
 */
const BROKEN =
    "v1:jf1U2uqQ5z1ED9p4:R+H7wOn1fiLEwiflyA+E8ZMLWkyGIpgbB7uyptiPpAXtmfsEQOWzIPPJzI6dA2KqGiy20yD7K2ecIQ8PYpTxY/mqXXzvivqmTWY5jO/3mCAY0zXDOuF1B9g0SK2fgV/cFbVhTlevfokzwIVVZXoFY6N2t2BkCt/5qnRT+9aPH6WOWGZKonbkUS/rJcknywYBkGqTjgNhT5A8X8IlkuzJO74xdDVRThei8MGeO3W3kseoEA0MwieHJMep74KyuG8qPp5ba0x7bSIB25hMZoT56Hx2DziiW6wgzPF56FIlvMwv5Of1WCzsS45T1fCE0kRcR2qwytDVqo1lAtO6M5LGBwdNq4QvHYr//8FimLZwuT5fDtEymei/EW000GeM2P6oX/dHO03ImF2am3bEAZukNs8+zhjw/QCaO9yDy+tLY8mP3hNz/SBWamIweVkNJWPzdWaYrnsWp4k6CUVeCWh8P3K3j0E0aobdXWaFxl9oDD8OvX+Sd9eBcml24ffp0qlpkeKNWVAeQ9K06lHqGV1mMNmX";
const BROKEN_TEXT = TEXT.replace(/(kubernetes:kubeconfig:\n\s+secure: )\S+/, `$1${BROKEN}`);
const PLAIN_TEXT = `config:\n  kubernetes:infra_type: kubeconfig\n  kic-helm:fqdn: mara.lab.example.org\n  kubernetes:kubeconfig: |\n${KUBECONFIG_TEXT.split("\n").map((l) => `    ${l}`).join("\n")}\n`;
/** Every value of the kubeconfig a message could leak: the token, the server, the CA data, the names. */
const PARTS = ["fixture-kubeconfig-token", "203.0.113.5", "LS0tLS1CRUdJTg==", "lab-admin"];

const SEALED = "kubernetes:kubeconfig is stored encrypted, and without the stack's passphrase (PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE) nothing here can decrypt it";
const NO_SERVER = "kubernetes:kubeconfig: is not a kubeconfig: its context names a cluster without a server address";
const PLAIN =
    "kubernetes:kubeconfig is a kubeconfig stored in plain text in the stack file, and it carries a bearer token: anyone who can read the file, or its history in Git, can act on the cluster as that user. " +
    "Store it encrypted: pulumi config set --secret kubernetes:kubeconfig < <kubeconfig file>";

let dir: string;
const made: string[] = [];
const stack = (name: string, text: string) => {
    const file = path.join(dir, `Pulumi.${name}.yaml`);
    fs.writeFileSync(file, text);
    made.push(file);
    return file;
};
beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-encrypted-kubeconfig-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `mara <command> -c <file>` with `env`; the fixes' --stack/--config-file taken out, as validationClasses does. */
async function mara(command: "validate" | "plan" | "render" | "doctor", file: string, env: Record<string, string> = {}) {
    const extra = command === "render" ? ["--secrets=omit", "--out", path.join(dir, `out-${path.basename(file)}-${Object.keys(env).join("-")}`)] : [];
    const r = await runMara([command, "-c", file, ...extra], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, ...env } });
    const out = `${r.stdout}\n${r.stderr}`;
    for (const part of PARTS) expect(out, `${command} printed part of the kubeconfig`).not.toContain(part);
    return { ...r, stderr: r.stderr.replace(/(pulumi config (?:set|rm)) --stack \S+ --config-file \S+/g, "$1") };
}

describe("an inline kubeconfig stored encrypted, as the Pulumi CLI writes it", () => {
    it("the program, given the plain text by Pulumi, accepts it without a word about it", async () => {
        const run = await runProgram(stackFile(TEXT, { secrets: { "kubernetes:kubeconfig": KUBECONFIG_TEXT.trimEnd() }, env: {} }));
        expect(run.error).toBeUndefined();
        expect(run.warnings.filter((w) => w.includes("kubeconfig"))).toEqual([]);
        expect(run.registrations.length).toBeGreaterThan(50);
        // A whole program run under mocks: several times its idle need, for a loaded machine.
    }, 120_000);

    it("with the stack's passphrase, validate, plan and render decrypt it and check it: valid, nothing to warn about", async () => {
        const file = stack("decrypted", TEXT);
        for (const env of [{ PULUMI_CONFIG_PASSPHRASE: PASSPHRASE }, { PULUMI_CONFIG_PASSPHRASE_FILE: writePassphraseFile(` ${PASSPHRASE}\n`) }] as Record<string, string>[]) {
            const validate = await mara("validate", file, env);
            expect(validate.code, validate.stderr).toBe(0);
            expect(validate.stderr).not.toContain("warning");
        }
        const plan = await mara("plan", file, { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE });
        expect(plan.code, plan.stderr).toBe(0);
        expect(plan.stdout).toContain("Helm releases (chart@version):");
        const render = await mara("render", file, { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE });
        expect(render.code, render.stderr).toBe(0);
    }, 180_000);

    it("without the passphrase, they accept it, say what they could not check, and render needs no cluster", async () => {
        const file = stack("sealed", TEXT);
        const validate = await mara("validate", file);
        expect(validate.code, validate.stderr).toBe(0);
        expect(validate.stderr).toContain(SEALED);
        const plan = await mara("plan", file);
        expect(plan.code, plan.stderr).toBe(0);
        expect(plan.stdout).toContain("Helm releases (chart@version):");
        const render = await mara("render", file);
        expect(render.code, render.stderr).toBe(0);
        expect(render.stderr).toContain(SEALED);
        // The doctor needs the kubeconfig itself: it says how to give it, before reaching for any cluster.
        const doctor = await mara("doctor", file);
        expect(doctor.code).toBe(2);
        expect(doctor.stderr).toContain('the kubeconfig of stack "sealed" is stored encrypted, and without the stack\'s passphrase it cannot be read here: export PULUMI_CONFIG_PASSPHRASE');
    }, 180_000);

    it("a broken kubeconfig stored encrypted: the same problem from validate, plan and render with the passphrase, and from the program", async () => {
        const file = stack("broken", BROKEN_TEXT);
        for (const command of ["validate", "plan", "render"] as const) {
            const r = await mara(command, file, { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE });
            expect(r.code, `${command}: ${r.stderr}`).toBe(1);
            expect(r.stderr).toContain(NO_SERVER);
        }
        const broken = KUBECONFIG_TEXT.replace("server: https://203.0.113.5:6443", 'server: ""').trimEnd();
        const run = await runProgram(stackFile(BROKEN_TEXT, { secrets: { "kubernetes:kubeconfig": broken } }));
        expect(run.error).toBeInstanceOf(ConfigError);
        expect((run.error as Error).message).toContain(NO_SERVER);
        expect(run.registrations).toEqual([]);
    }, 180_000);

    it("a wrong passphrase, an unreadable passphrase file, a value the passphrase does not open: refused where Pulumi stops", async () => {
        const file = stack("wrong", TEXT);
        const wrong = await mara("validate", file, { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" });
        expect(wrong.code).toBe(1);
        expect(wrong.stderr).toContain('PULUMI_CONFIG_PASSPHRASE: is not the passphrase of this stack (it does not open the stack file\'s encryptionsalt), so Pulumi stops with "incorrect passphrase" before the program starts');
        expect(wrong.stderr).not.toContain("not-the-passphrase");
        const missing = await mara("validate", file, { PULUMI_CONFIG_PASSPHRASE_FILE: path.join(dir, "no-such-file") });
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain(`PULUMI_CONFIG_PASSPHRASE_FILE: names ${path.join(dir, "no-such-file")}, and it does not exist`);
        // A directory, a pipe (read, it would never end): refused without reading, at once.
        const fifo = path.join(dir, "passphrase.fifo");
        execFileSync("mkfifo", [fifo]);
        for (const [name, why] of [[dir, "it is a directory"], [fifo, "it is not a regular file"]] as const) {
            const r = await mara("validate", file, { PULUMI_CONFIG_PASSPHRASE_FILE: name });
            expect(r.code).toBe(1);
            expect(r.stderr).toContain(`PULUMI_CONFIG_PASSPHRASE_FILE: names ${name}, and ${why}`);
        }
        // A value encrypted for another stack: the passphrase is right, the tag does not authenticate.
        const other = stack("other", TEXT.replace(/(kubernetes:kubeconfig:\n\s+secure: v1:)[^:]+/, "$1AAECAwQFBgcICQoL"));
        const foreign = await mara("validate", other, { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE });
        expect(foreign.code).toBe(1);
        expect(foreign.stderr).toContain("kubernetes:kubeconfig: has a `secure:` value that the stack's passphrase does not decrypt");
    }, 120_000);
});

describe("an inline kubeconfig in plain text that carries a credential", () => {
    it("is accepted with a warning naming the key and the fix, by validate, plan, render and the program", async () => {
        const file = stack("plain", PLAIN_TEXT);
        for (const command of ["validate", "plan", "render"] as const) {
            const r = await mara(command, file);
            expect(r.code, `${command}: ${r.stderr}`).toBe(0);
            expect(r.stderr, command).toContain(PLAIN);
        }
        const run = await runProgram(stackFile(PLAIN_TEXT));
        expect(run.error).toBeUndefined();
        expect(run.warnings.join("\n")).toContain(PLAIN);
        for (const part of PARTS) expect(run.warnings.join("\n")).not.toContain(part);
    }, 180_000);

    it("names each kind of credential, and nothing for a kubeconfig without one or one given as a path", () => {
        const warn = (kubeconfig: string, secret = false) => {
            const raw = parseStackFile(`config:\n  kubernetes:infra_type: kubeconfig\n  kic-helm:fqdn: mara.lab.example.org\n`, {});
            const values = { ...raw.values, "kubernetes:kubeconfig": kubeconfig };
            return validateConfig({ ...raw, values, secretKeys: new Set(secret ? ["kubernetes:kubeconfig"] : []) }).warnings.filter((w) => w.includes("plain text"));
        };
        const withUser = (user: string) => KUBECONFIG_TEXT.replace(/users:[\s\S]*$/, `users:\n  - name: admin\n    user:\n${user}`);
        expect(warn(withUser("      client-certificate-data: Q0VSVA==\n      client-key-data: S0VZ\n"))[0]).toContain("it carries a client key:");
        expect(warn(withUser("      username: admin\n      password: hunter2-basic\n"))[0]).toContain("it carries a password:");
        expect(warn(withUser("      auth-provider:\n        name: oidc\n        config: { id-token: eyJ.x.y, client-id: k }\n"))[0]).toContain("it carries an auth-provider token:");
        expect(warn(withUser("      exec:\n        apiVersion: client.authentication.k8s.io/v1\n        command: aws\n        env: [{ name: AWS_SECRET_ACCESS_KEY, value: abc }]\n"))[0]).toContain("a credential in an exec plugin's environment");
        // An exec plugin that fetches its token, a token in a file: nothing in the text to steal.
        expect(warn(withUser("      exec:\n        apiVersion: client.authentication.k8s.io/v1\n        command: aws\n        args: [eks, get-token]\n"))).toEqual([]);
        expect(warn(withUser("      tokenFile: /var/run/token\n"))).toEqual([]);
        // Stored encrypted (the program's view under pulumi up): no warning.
        expect(warn(KUBECONFIG_TEXT, true)).toEqual([]);
    });
});

describe("the offline decryption, against Pulumi's own test vector", () => {
    it("opens the salt of pulumi/pulumi's manager_test.go with its passphrase, and refuses another", () => {
        // pkg/secrets/passphrase/manager_test.go: this state with the passphrase "password" is a correct one.
        const salt = "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";
        const text = `encryptionsalt: ${salt}\nconfig:\n  kubernetes:kubeconfig:\n    secure: v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==\n`;
        const raw = parseStackFile(text, { env: { PULUMI_CONFIG_PASSPHRASE: "password" } });
        // The salt's own check value, stored as the kubeconfig: it opens to "pulumi".
        expect(decryptOffline(raw, ["kubernetes:kubeconfig"], dir).values["kubernetes:kubeconfig"]).toBe("pulumi");
        const refused = decryptOffline(parseStackFile(text, { env: { PULUMI_CONFIG_PASSPHRASE: "password123" } }), ["kubernetes:kubeconfig"], dir);
        expect(refused.stackFile!.offline!["kubernetes:kubeconfig"]).toMatchObject({ state: "refused", setting: "PULUMI_CONFIG_PASSPHRASE" });
        expect(refused.values["kubernetes:kubeconfig"]).toBe("<encrypted>");
    });

    it("an encryptionsalt that is not one: refused, naming the salt, whatever the passphrase", () => {
        for (const salt of ["v1:only-two", "v2:AAAA:v1:AAAA:BBBB", "garbage"]) {
            const raw = parseStackFile(TEXT.replace(/^encryptionsalt: .*$/m, `encryptionsalt: "${salt}"`), { env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE } });
            expect(decryptOffline(raw, ["kubernetes:kubeconfig"], dir).stackFile!.offline!["kubernetes:kubeconfig"], salt).toMatchObject({ state: "refused", setting: "encryptionsalt" });
        }
    });

    it("reads nothing and derives no key where nothing asked for is encrypted, or the provider is not the passphrase one", () => {
        const raw = parseStackFile(TEXT, { env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE } });
        expect(decryptOffline(raw, ["mara:kubeconfig"], dir)).toBe(raw);
        const service = parseStackFile("config:\n  kubernetes:kubeconfig:\n    secure: AAABAGNpcGhlcnRleHQ=\n", { env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE } });
        expect(decryptOffline(service, ["kubernetes:kubeconfig"], dir).stackFile!.offline).toEqual({ "kubernetes:kubeconfig": { state: "sealed", why: "not-passphrase" } });
    });
});

function writePassphraseFile(text: string): string {
    const file = path.join(dir, "passphrase.txt");
    fs.writeFileSync(file, text);
    return file;
}
