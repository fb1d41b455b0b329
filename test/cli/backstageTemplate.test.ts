/**
 * The Backstage template (templates/backstage/): generated from `mara init`'s sources, accepted by Backstage's
 * Template schema, refusing what `mara init` refuses with its words, and writing a stack file `mara validate`
 * accepts. What only a real Backstage shows is in docs/backstage.md.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { InfraType, KeyId } from "../../config";
import { KEYS } from "../../config/keys";
import { HOSTNAME_PATTERN, hostnameProblem } from "../../contracts/names";
import { checkValue } from "../../cli/init/keys";
import { stackNameProblem } from "../../cli/stack/stackSource";
import { allowedText, askedIds, emptyMessage, fieldMessages, renderBackstageTemplate, TEMPLATE_FILE, templateDocument, templateQuestions } from "../../tools/backstageTemplate";
import { entityValidator, formValidator, renderSkeleton, renderStepInput } from "../support/backstage";
import { runMara } from "./support/io";

const ROOT = path.join(__dirname, "..", "..");
const SKELETON = path.join(ROOT, "templates", "backstage", "skeleton");
const committed = () => parse(fs.readFileSync(path.join(ROOT, TEMPLATE_FILE), "utf8")) as ReturnType<typeof templateDocument> & { spec: Spec };
interface Spec {
    parameters: Record<string, unknown>[];
    steps: { id: string; action: string; input: Record<string, unknown> }[];
}
const spec = () => committed().spec;

/** RJSF hands the validator no value for a text field left empty (its default emptyValue), so "" is left out. */
function formErrors(answers: Record<string, string>) {
    const given = Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== ""));
    return formValidator(spec().parameters[0]!)(given);
}

/** The messages the form shows for one field: its own errors and the required error that names it. */
function messagesFor(answers: Record<string, string>, field: string): string[] {
    return formErrors(answers)
        .filter((e) => e.instancePath === `/${field}` || (e.keyword === "errorMessage" && e.instancePath === "" && JSON.stringify(e.params).includes(`"${field}"`)))
        .map((e) => e.message ?? "");
}

// A kubeconfig whose context has a name that breaks a YAML file written without quoting.
const HOSTILE_CONTEXT = "kind: my #cluster";
const kubeconfigDir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-backstage-kube-"));
const kubeconfigFile = path.join(kubeconfigDir, "config");
fs.writeFileSync(kubeconfigFile, fs.readFileSync(path.join(ROOT, "test", "fixtures", "kubeconfig.yaml"), "utf8").replaceAll("lab-admin", JSON.stringify(HOSTILE_CONTEXT)));
afterAll(() => fs.rmSync(kubeconfigDir, { recursive: true, force: true }));
const VALID: Readonly<Record<InfraType, Record<string, string>>> = {
    aws: { stack: "dev", infraType: "aws", owner: "group:platform", awsRegion: "eu-west-1", awsProfile: "prod-admin" },
    digitalocean: { stack: "acme/platform/prod", infraType: "digitalocean", owner: "group:platform", fqdn: "mara.example.com", doRegion: "nyc3" },
    linode: { stack: "lke_1", infraType: "linode", owner: "group:platform", fqdn: "bank.example.org", lkeRegion: "us-central", lkeK8sVersion: "1.36" },
    kubeconfig: { stack: "edge", infraType: "kubeconfig", owner: "group:platform", kubeconfig: kubeconfigFile, kubeContext: HOSTILE_CONTEXT, fqdn: "mara.local.example" },
};

describe("the Backstage template", () => {
    it("is the one npm run gen writes from mara init's questions and the key table", () => {
        expect(fs.readFileSync(path.join(ROOT, TEMPLATE_FILE), "utf8")).toBe(renderBackstageTemplate());
    });

    it("checks against the schemas as vendored (test/fixtures/backstage/SHA256SUMS)", () => {
        const dir = path.join(ROOT, "test", "fixtures", "backstage");
        const sums = fs.readFileSync(path.join(dir, "SHA256SUMS"), "utf8").trim().split("\n");
        expect(sums.map((l) => l.split(/\s+/)[1]).sort()).toEqual(fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort());
        for (const l of sums) {
            const [digest, file] = l.split(/\s+/);
            expect(createHash("sha256").update(fs.readFileSync(path.join(dir, file!))).digest("hex"), file).toBe(digest);
        }
    });

    it("is a Template entity as Backstage's published schema (scaffolder.backstage.io/v1beta3) defines it", () => {
        const validate = entityValidator("Template.v1beta3.schema.json");
        expect(validate(committed()), JSON.stringify(validate.errors)).toBe(true);
        // The check can fail: a template without steps, or with parameters of the wrong shape, is refused.
        const broken = structuredClone(committed()) as unknown as { spec: Record<string, unknown> };
        delete broken.spec.steps;
        expect(validate(broken)).toBe(false);
        expect(validate({ ...committed(), spec: { ...spec(), parameters: "stack" } })).toBe(false);
    });

    it("asks each infrastructure type's questions of mara init, and no credential", () => {
        const branches = (spec().parameters[0] as { allOf: { if: unknown; then: { properties: Record<string, unknown> } }[] }).allOf;
        for (const [i, type] of (["aws", "digitalocean", "linode", "kubeconfig"] as const).entries()) {
            expect(branches[i]!.if).toEqual({ properties: { infraType: { const: type } }, required: ["infraType"] });
            expect(Object.keys(branches[i]!.then.properties)).toEqual(templateQuestions(type).map((q) => q.id));
        }
        expect(askedIds().filter((id) => KEYS[id].secret)).toEqual([]);
    });

    for (const type of ["aws", "digitalocean", "linode", "kubeconfig"] as const) {
        it(`writes a stack file mara validate accepts and an Argo CD Application (${type})`, async () => {
            const answers: Record<string, string> = { ...VALID[type], repoUrl: "github.com?owner=acme&repo=platform-prod" };
            expect(formErrors(answers)).toEqual([]);
            const fetch = spec().steps.find((s) => s.action === "fetch:template")!;
            const input = renderStepInput(fetch.input, answers) as { url: string; values: Record<string, unknown> };
            const out = fs.mkdtempSync(path.join(os.tmpdir(), "mara-backstage-"));
            try {
                const stackName = answers.stack.split("/").pop()!;
                expect(path.join(path.dirname(path.join(ROOT, TEMPLATE_FILE)), input.url)).toBe(SKELETON);
                const files = renderSkeleton(SKELETON, input.values, out);
                expect(files).toEqual([`Pulumi.${stackName}.yaml`, path.join("argocd", "application.yaml"), "catalog-info.yaml"].sort());

                // The stack file holds exactly what mara init would store for these answers.
                const stackFile = path.join(out, `Pulumi.${stackName}.yaml`);
                const config = (parse(fs.readFileSync(stackFile, "utf8")) as { config: Record<string, unknown> }).config;
                const expected: Record<string, string> = { [KEYS.infraType.key]: type };
                for (const q of templateQuestions(type)) {
                    const v = answers[q.id];
                    if (v === undefined || v === "") continue;
                    const checked = checkValue(q.id, v);
                    expect(checked.ok).toBe(true);
                    expected[KEYS[q.id].key] = (checked as { value: string }).value;
                }
                expect(config).toEqual(expected);

                // The token is not in the file: it comes from the environment (or the CI's secret store), as docs/backstage.md says.
                const env = { HOME: os.tmpdir(), PATH: process.env.PATH, DIGITALOCEAN_TOKEN: "dop_v1_test", LINODE_TOKEN: "linode-test" };
                const run = await runMara(["validate", "--config-file", stackFile], { cwd: out, projectDir: ROOT, env });
                expect(run.stderr).toBe("");
                expect(run.code).toBe(0);
                expect(run.stdout).toContain(`is valid`);
                expect(run.stdout).toContain(`(infra type ${type})`);

                const app = parse(fs.readFileSync(path.join(out, "argocd", "application.yaml"), "utf8")) as { spec: { source: unknown } };
                expect(app).toMatchObject({ apiVersion: "argoproj.io/v1alpha1", kind: "Application", metadata: { name: "mara-platform", namespace: "argocd" } });
                expect(app.spec.source).toEqual({ repoURL: "https://github.com/acme/platform-prod.git", targetRevision: "main", path: `deploy/${stackName}` });

                const component = parse(fs.readFileSync(path.join(out, "catalog-info.yaml"), "utf8")) as unknown;
                const validComponent = entityValidator("Component.v1alpha1.schema.json");
                expect(validComponent(component), JSON.stringify(validComponent.errors)).toBe(true);
            } finally {
                fs.rmSync(out, { recursive: true, force: true });
            }
        });
    }

    it("keeps every answer text through the step input and the skeleton: 1.30 is not written as the number 1.3", () => {
        const answers = { ...VALID.linode, lkeK8sVersion: "1.30", fqdn: "yes.example.com", repoUrl: "github.com?owner=acme&repo=p" };
        const fetch = spec().steps.find((s) => s.action === "fetch:template")!;
        const input = renderStepInput(fetch.input, answers) as { values: Record<string, unknown> };
        const out = fs.mkdtempSync(path.join(os.tmpdir(), "mara-backstage-"));
        try {
            renderSkeleton(SKELETON, input.values, out);
            const config = (parse(fs.readFileSync(path.join(out, "Pulumi.lke_1.yaml"), "utf8")) as { config: Record<string, unknown> }).config;
            expect(config["mara:lkeK8sVersion"]).toBe("1.30");
            expect(config["mara:fqdn"]).toBe("yes.example.com");
        } finally {
            fs.rmSync(out, { recursive: true, force: true });
        }
    });

    it("leaves an optional question left empty out of the stack file, as mara init does", () => {
        // RJSF gives no value for a field left empty; the step input then has none.
        const answers: Record<string, string> = { ...VALID.aws, repoUrl: "github.com?owner=acme&repo=p" };
        delete answers.awsProfile;
        expect(formErrors(answers)).toEqual([]);
        const fetch = spec().steps.find((s) => s.action === "fetch:template")!;
        const input = renderStepInput(fetch.input, answers) as { values: Record<string, unknown> };
        const out = fs.mkdtempSync(path.join(os.tmpdir(), "mara-backstage-"));
        try {
            renderSkeleton(SKELETON, input.values, out);
            const config = (parse(fs.readFileSync(path.join(out, "Pulumi.dev.yaml"), "utf8")) as { config: Record<string, unknown> }).config;
            expect(config).toEqual({ "mara:infraType": "aws", "aws:region": "eu-west-1" });
        } finally {
            fs.rmSync(out, { recursive: true, force: true });
        }
    });

    /**
     * Hostile answers, per field: whether `mara init` takes each (cli/init/keys.ts, checkValue: what the prompt and
     * --set accept) and whether the form does. Where init refuses, the form refuses with init's words; where only
     * the form refuses, the row says why the form is stricter.
     */
    const long = (n: number) => "a".repeat(n);
    const ROWS: { id: KeyId; type: InfraType; value: string; init: boolean; form: boolean; why?: string }[] = [
        { id: "awsProfile", type: "aws", value: "prod admin", init: false, form: false },
        { id: "awsProfile", type: "aws", value: "prod\nadmin: x", init: false, form: false },
        { id: "awsProfile", type: "aws", value: "prоd", init: false, form: false }, // Cyrillic о
        { id: "awsProfile", type: "aws", value: '["a"]', init: false, form: false },
        { id: "awsProfile", type: "aws", value: "yes", init: true, form: true },
        { id: "awsProfile", type: "aws", value: " prod ", init: true, form: false, why: "white space around a value" },
        { id: "awsRegion", type: "aws", value: "us-east-9", init: false, form: false },
        { id: "awsRegion", type: "aws", value: "US-EAST-1", init: false, form: false },
        { id: "awsRegion", type: "aws", value: "", init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: "", init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: "10.0.0.1", init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: "*.example.com", init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: "localhost", init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: "a..example.com", init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: "-a.example.com", init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: `${long(64)}.example.com`, init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: `${long(63)}.${long(63)}.${long(63)}.${long(61)}.com`, init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: "[::1]", init: false, form: false },
        { id: "fqdn", type: "digitalocean", value: "bank.exаmple.com", init: false, form: false }, // Cyrillic а
        { id: "fqdn", type: "digitalocean", value: "Mara.Example.COM", init: true, form: true },
        { id: "fqdn", type: "digitalocean", value: "mara.example.com.", init: true, form: false, why: "init drops the root's dot; the form takes the name without it" },
        { id: "doRegion", type: "digitalocean", value: "mars1", init: false, form: false },
        { id: "lkeRegion", type: "linode", value: "us-east ", init: true, form: false, why: "white space around a value" },
        { id: "lkeRegion", type: "linode", value: "nowhere", init: false, form: false },
        { id: "lkeK8sVersion", type: "linode", value: "1.3x", init: false, form: false },
        { id: "lkeK8sVersion", type: "linode", value: "v1.35", init: false, form: false },
        { id: "lkeK8sVersion", type: "linode", value: "1.35.1", init: false, form: false },
        { id: "lkeK8sVersion", type: "linode", value: "", init: false, form: false },
        { id: "kubeContext", type: "kubeconfig", value: '{"a":1}', init: false, form: false },
        { id: "kubeContext", type: "kubeconfig", value: "prod: #1 'x'", init: true, form: true },
        { id: "kubeContext", type: "kubeconfig", value: "[ctx", init: true, form: false, why: "a form cannot tell a list from text that starts like one" },
        { id: "kubeconfig", type: "kubeconfig", value: "", init: false, form: false },
        { id: "kubeconfig", type: "kubeconfig", value: "~/.kube/config", init: true, form: true },
        { id: "kubeconfig", type: "kubeconfig", value: "apiVersion: v1\nclusters: []", init: true, form: false, why: "an inline kubeconfig holds credentials and would be committed" },
        { id: "kubeconfig", type: "kubeconfig", value: '{"apiVersion":"v1"}', init: true, form: false, why: "an inline kubeconfig holds credentials and would be committed" },
    ];
    it.each(ROWS)("$id = $value: init takes it: $init; the form: $form", ({ id, type, value, init, form, why }) => {
        const checked = checkValue(id, value);
        expect(checked.ok).toBe(init);
        const messages = messagesFor({ ...VALID[type], [id]: value }, id);
        expect(messages.length === 0).toBe(form);
        if (!init) {
            const key = KEYS[id].key;
            const reason = (checked as { reason: string }).reason;
            const own = fieldMessages(id);
            // The form's message is init's, save the part a pattern cannot know (which label, a suggestion).
            const expected = value === "" ? emptyMessage(id) : own.pattern === `${key} has the wrong form. Allowed: ${KEYS[id].type.allowed}` && reason.startsWith("has the wrong form") ? `${key} ${reason}` : undefined;
            if (expected) expect(messages).toEqual([expected]);
            else expect(messages).toEqual([expect.stringMatching(new RegExp(`^${key.replace(/[.:]/g, "\\$&")} .*Allowed: `))]);
            expect(messages[0]!.endsWith(`Allowed: ${allowedText(id)}`)).toBe(true);
        }
        if (init && !form) expect(why).toBeDefined();
    });

    it.each(["dev", "acme/prod", "a/b/c", "..", "a/../b", "a/b/c/d", "dev stack", "dév", ".", "a/.../b", "-_.", "", "/dev", "dev/"])("stack name %j: the form's verdict and message are stackNameProblem's", (stack) => {
        const problem = stackNameProblem(stack);
        const messages = messagesFor({ ...VALID.aws, stack }, "stack");
        expect(messages).toEqual(problem ? [problem] : []);
    });

    it("HOSTNAME_PATTERN gives hostnameProblem's verdict (random names over the characters that matter)", () => {
        const pattern = new RegExp(HOSTNAME_PATTERN, "u");
        const alphabet = ["a", "a", "a", "Z", "0", "9", "-", ".", ".", "a", "b", "c", "x", "1", "-", "a", ".", ":", "*", " ", "é"];
        let seed = 7;
        const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
        let accepted = 0;
        for (let i = 0; i < 20000; i++) {
            let s = "";
            const n = next() % 14;
            for (let j = 0; j < n; j++) s += alphabet[next() % alphabet.length];
            const form = pattern.test(s) && s.length <= 253;
            expect(form, JSON.stringify(s)).toBe(hostnameProblem(s) === undefined);
            if (form) accepted++;
        }
        // Both verdicts occur, so the loop compares something.
        expect(accepted).toBeGreaterThan(100);
    });
});
