/**
 * What Backstage does with templates/backstage/, as far as it runs here without a Backstage instance:
 *
 * - {@link entityValidator}: the catalog's check of an entity against its kind's schema, with the schemas vendored
 *   from Backstage's packages (test/fixtures/backstage/) and Ajv set up as `@backstage/catalog-model` sets it up
 *   (backstage/backstage, packages/catalog-model/src/validation/ajv.ts, compileAjvSchema: draft-07 Ajv with
 *   allowUnionTypes, allErrors and validateSchema, the envelope, entity, metadata and common schemas added).
 * - {@link formValidator}: the form's check of a step's answers. A fake of the browser form, imitating Backstage's
 *   Stepper (plugins/scaffolder-react/src/next/components/Stepper/Stepper.tsx: RJSF's `customizeValidator()`, whose
 *   Ajv 8 is made in @rjsf/validator-ajv8 src/createAjvInstance.ts with allErrors, strict: false and verbose, then
 *   `ajvErrors(validator.ajv)`), over the whole step schema rather than RJSF's per-field rendering.
 * - {@link renderStepInput} and {@link renderSkeleton}: the task runner's rendering of a step's input and the
 *   `fetch:template` action, with Backstage's own engine, nunjitsu, called as the scaffolder backend calls it
 *   (plugins/scaffolder-backend src/scaffolder/tasks/NunjucksWorkflowRunner.ts, `render`: renderValue with JSON
 *   coercion on each string; src/scaffolder/actions/builtin/fetch/templateActionHandler.ts: every entry's path and
 *   text rendered with `{ values }`). The `parseRepoUrl` filter is a fake of Backstage's (plugin-scaffolder-node's
 *   parseRepoUrl for a github.com URL from the RepoUrlPicker, `github.com?owner=o&repo=r`), without integrations.
 */
import * as fs from "fs";
import * as path from "path";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import ajvErrors from "ajv-errors";
import { createTemplateRenderer, type TemplateValue } from "nunjitsu";

const SCHEMAS = path.join(__dirname, "..", "fixtures", "backstage");
const readSchema = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(SCHEMAS, name), "utf8")) as Record<string, unknown>;

/** The catalog's validator of one entity kind (`Template.v1beta3`, `Component.v1alpha1`). */
export function entityValidator(kindSchema: string): ValidateFunction {
    const ajv = new Ajv({ allowUnionTypes: true, allErrors: true, validateSchema: true });
    ajv.addSchema(["EntityEnvelope.schema.json", "Entity.schema.json", "EntityMeta.schema.json", "common.schema.json"].map(readSchema), undefined, undefined, true);
    return ajv.compile(readSchema(kindSchema));
}

/**
 * A step's schema without its `ui:` keys, which Backstage moves into the UI schema before the form validates
 * (plugins/scaffolder-react/src/next/lib/schema.ts, extractUiSchema: over properties, items, anyOf, oneOf, allOf,
 * dependencies, then and else; here every object, which reaches the same keys in this template).
 */
function withoutUiKeys(node: unknown): unknown {
    if (Array.isArray(node)) return node.map(withoutUiKeys);
    if (node === null || typeof node !== "object") return node;
    return Object.fromEntries(Object.entries(node).filter(([k]) => !k.startsWith("ui:")).map(([k, v]) => [k, withoutUiKeys(v)]));
}

/** The form's validator of one step of a template's `parameters`. */
export function formValidator(step: Record<string, unknown>): (answers: Record<string, unknown>) => ErrorObject[] {
    const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
    ajvErrors(ajv);
    const { title: _title, ...schema } = withoutUiKeys(step) as Record<string, unknown>;
    const validate = ajv.compile({ type: "object", ...schema });
    return (answers) => (validate(answers) ? [] : [...(validate.errors ?? [])]);
}

/** A fake of Backstage's parseRepoUrl filter for a GitHub repository (see the module's comment). */
function parseRepoUrl(url: unknown): { host: string; owner: string; repo: string } {
    const u = new URL(`https://${String(url)}`);
    const owner = u.searchParams.get("owner");
    const repo = u.searchParams.get("repo");
    if (!owner || !repo) throw new Error(`parseRepoUrl: ${String(url)} has no owner or repo`);
    return { host: u.host, owner, repo };
}

const renderer = createTemplateRenderer({ allowRegexExecution: true, filters: { parseRepoUrl } });

/** A step's input with every string rendered against `parameters`, as the task runner renders it. */
export function renderStepInput(input: unknown, parameters: Record<string, unknown>): unknown {
    const context = renderer.prepareContext({ parameters: parameters as TemplateValue, steps: {}, user: {} });
    return JSON.parse(JSON.stringify(input), (_key, value: unknown) => {
        if (typeof value !== "string") return value;
        return renderer.renderValue(value, context, { coercion: "json" });
    });
}

/** Writes the skeleton folder rendered with `values` into `outDir`, as `fetch:template` does; returns the files written. */
export function renderSkeleton(skeleton: string, values: Record<string, unknown>, outDir: string): string[] {
    const context = renderer.prepareContext({ values: values as TemplateValue });
    const written: string[] = [];
    const walk = (rel: string) => {
        for (const entry of fs.readdirSync(path.join(skeleton, rel), { withFileTypes: true })) {
            const from = path.join(rel, entry.name);
            const to = renderer.render(from, context);
            if (entry.isDirectory()) walk(from);
            else {
                const target = path.resolve(outDir, to);
                if (!target.startsWith(path.resolve(outDir) + path.sep)) throw new Error(`fetch:template: ${to} is outside the target`);
                fs.mkdirSync(path.dirname(target), { recursive: true });
                fs.writeFileSync(target, renderer.render(fs.readFileSync(path.join(skeleton, from), "utf8"), context));
                written.push(to);
            }
        }
    };
    walk("");
    return written.sort();
}
