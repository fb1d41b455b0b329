/**
 * Generates templates/backstage/template.yaml, the Backstage software template that asks what `mara init` asks, from
 * the same sources: the questions of each infrastructure type (cli/init/questions.ts), each key's type, description
 * and "Allowed:" words (config/keys.ts), the form part of each type's rule (config/valueTypes.ts, `form`) and the
 * stack name's pattern (cli/stack/stackSource.ts). `npm run gen` writes it; test/unit/backstageTemplate.test.ts fails when
 * the committed file is stale.
 *
 * Messages: Backstage's form validates with RJSF's Ajv 8 validator with ajv-errors added
 * (backstage/backstage, plugins/scaffolder-react/src/next/components/Stepper/Stepper.tsx: `customizeValidator()`
 * then `ajvErrors(validator.ajv)`), so each field's `errorMessage` replaces Ajv's own words with `mara init`'s.
 */
import { stringify } from "yaml";
import { INFRA_TYPES, type InfraType } from "../contracts";
import { KEYS, type KeyId, type KeySpec } from "../config/keys";
import { textFormPattern, type FormRule } from "../config/valueTypes";
import { QUESTIONS, type Question } from "../cli/init/questions";
import { PROVIDERS } from "../cli/init/providers";
import { STACK_NAME_ALLOWED, STACK_NAME_PATTERN } from "../cli/stack/stackSource";

/** Where the template lives in the repository. */
export const TEMPLATE_FILE = "templates/backstage/template.yaml";

/**
 * Questions the template leaves out, and why: a credential typed into the form would be written into the new
 * repository's files (a stack file holds secrets only encrypted with the stack's key, which only the Pulumi CLI has).
 */
export const NOT_ASKED: Readonly<Partial<Record<KeyId, string>>> = {
    doToken: "a credential: give it as the repository's DIGITALOCEAN_TOKEN Actions secret or export it where pulumi runs",
    linodeToken: "a credential: give it as the repository's LINODE_TOKEN Actions secret or export it where pulumi runs",
};

/**
 * Where the form is stricter than `mara init`, and why (besides the white space around a value, which init trims
 * and a form writes as typed). Keyed by question id.
 */
export const STRICTER: Readonly<Partial<Record<KeyId, { rule: FormRule; allowed: string; why: string }>>> = {
    kubeconfig: {
        // One line: a path. init also takes the file's contents, which hold the cluster's credentials.
        rule: { pattern: textFormPattern(/^[^\r\n]+$/), maxLength: 4096 },
        allowed: "the path of a kubeconfig file where pulumi runs, such as ~/.kube/config (not the file's contents)",
        why: "an inline kubeconfig holds the cluster's credentials, and the stack file goes into Git in plain text",
    },
};

/** The questions the template asks for one infrastructure type, in `mara init`'s order. */
export function templateQuestions(type: InfraType): readonly Question[] {
    return QUESTIONS[type].filter((q) => NOT_ASKED[q.id] === undefined);
}

/** The default a field shows: the key's own default, else the suggestion `mara init` offers (without the environment). */
function fieldDefault(q: Question): string | undefined {
    const spec = KEYS[q.id] as KeySpec<unknown>;
    if (spec.default !== undefined) return spec.type.render(spec.default);
    return q.suggest?.({});
}

/** The "Allowed:" words of a field, as `mara init` prints them after a refusal. */
export function allowedText(id: KeyId): string {
    return STRICTER[id]?.allowed ?? (KEYS[id] as KeySpec<unknown>).type.allowed;
}

/** The form rule of a field. */
export function formRule(id: KeyId): FormRule {
    const rule = STRICTER[id]?.rule ?? (KEYS[id] as KeySpec<unknown>).type.form;
    if (!rule) throw new Error(`${KEYS[id].key}: its type has no form rule, so the template cannot check it`);
    return rule;
}

/**
 * The message the form shows for each way a field can fail, in `mara init`'s words (cli/init/answers.ts, ask:
 * `<key> <reason>. Allowed: <allowed>`, the reasons of config/valueTypes.ts).
 */
export function fieldMessages(id: KeyId): Record<string, string> {
    const key = KEYS[id].key;
    const allowed = allowedText(id);
    const rule = formRule(id);
    const messages: Record<string, string> = { type: `${key} is not text. Allowed: ${allowed}` };
    if (rule.pattern !== undefined) {
        // fqdn()'s reasons name the label at fault; a pattern cannot, so the form says what init says before "it".
        messages.pattern = id === "fqdn" ? `${key} is not a valid domain name. Allowed: ${allowed}` : `${key} has the wrong form. Allowed: ${allowed}`;
    }
    if (rule.enum !== undefined) messages.enum = `${key} is not a known value. Allowed: ${allowed}`;
    if (rule.maxLength !== undefined) messages.maxLength = `${key} is longer than ${rule.maxLength} characters. Allowed: ${allowed}`;
    return messages;
}

/** The message for a required field left empty (`mara init`: "<key> is empty. Allowed: ..."). */
export function emptyMessage(id: KeyId): string {
    return `${KEYS[id].key} is empty. Allowed: ${allowedText(id)}`;
}

function field(q: Question): Record<string, unknown> {
    const spec = KEYS[q.id] as KeySpec<unknown>;
    const rule = formRule(q.id);
    const fallback = fieldDefault(q);
    return {
        title: spec.key,
        description: spec.description + (q.optional ? " Optional: leave it empty to leave the key out." : ""),
        type: "string",
        ...(rule.enum !== undefined ? { enum: [...rule.enum] } : {}),
        ...(rule.pattern !== undefined ? { pattern: rule.pattern } : {}),
        ...(rule.maxLength !== undefined ? { maxLength: rule.maxLength } : {}),
        ...(fallback !== undefined ? { default: fallback } : {}),
        "ui:help": `Allowed: ${allowedText(q.id)}`,
        errorMessage: fieldMessages(q.id),
    };
}

/**
 * The form's branch for one infrastructure type: its questions, required unless optional. An if/then rather than
 * `dependencies` with `oneOf`: with oneOf, one bad answer fails every branch, and Ajv reports the other types'
 * missing fields too; a `then` applies to its own type alone. The form renders the matching `then`'s fields
 * (rjsf-team/react-jsonschema-form, packages/utils/src/schema/retrieveSchema.ts, resolveCondition), and Backstage
 * lifts their `ui:` keys into the UI schema (backstage/backstage, plugins/scaffolder-react/src/next/lib/schema.ts,
 * extractUiSchema, which walks `allOf` and `then`).
 */
function branch(type: InfraType): Record<string, unknown> {
    const questions = templateQuestions(type);
    const required = questions.filter((q) => !q.optional).map((q) => q.id);
    return {
        if: { properties: { infraType: { const: type } }, required: ["infraType"] },
        then: {
            properties: Object.fromEntries(questions.map((q) => [q.id, field(q)])),
            ...(required.length > 0 ? { required, errorMessage: { required: Object.fromEntries(required.map((id) => [id, emptyMessage(id)])) } } : {}),
        },
    };
}

/** Every question id the template asks, over all infrastructure types, in first-asked order. */
export function askedIds(): KeyId[] {
    return [...new Set(INFRA_TYPES.flatMap((t) => templateQuestions(t).map((q) => q.id)))];
}

/** The message for a stack name the pattern refuses: cli/stack/stackSource.ts, stackNameProblem's, with the value. */
export const STACK_NAME_MESSAGE = `\${0} is not a stack name: use ${STACK_NAME_ALLOWED}`;

/** The template as a document. */
export function templateDocument(): Record<string, unknown> {
    const values: Record<string, string> = {
        stack: "${{ parameters.stack }}",
        stackName: '${{ parameters.stack.split("/") | last }}',
        infraType: "${{ parameters.infraType }}",
        ...Object.fromEntries(askedIds().map((id) => [id, `\${{ parameters.${id} }}`])),
        repoUrl: "https://${{ (parameters.repoUrl | parseRepoUrl).host }}/${{ (parameters.repoUrl | parseRepoUrl).owner }}/${{ (parameters.repoUrl | parseRepoUrl).repo }}.git",
        repoName: "${{ (parameters.repoUrl | parseRepoUrl).repo }}",
        owner: "${{ parameters.owner }}",
    };
    return {
        apiVersion: "scaffolder.backstage.io/v1beta3",
        kind: "Template",
        metadata: {
            name: "mara-platform-stack",
            title: "MARA platform stack",
            description:
                "A new repository with a stack of the MARA platform (Pulumi.<stack>.yaml, the settings `mara init` asks for) and the Argo CD Application that delivers what `mara render` writes into it.",
            tags: ["pulumi", "kubernetes", "argocd", "nginx"],
        },
        spec: {
            owner: "platform-team",
            type: "infrastructure",
            parameters: [
                {
                    title: "Stack",
                    required: ["stack", "infraType", "owner"],
                    properties: {
                        stack: {
                            title: "Stack name",
                            description: "The Pulumi stack: name, org/name or org/project/name. Its settings are written to Pulumi.<name>.yaml.",
                            type: "string",
                            pattern: STACK_NAME_PATTERN.source,
                            default: "dev",
                            "ui:help": STACK_NAME_ALLOWED.charAt(0).toUpperCase() + STACK_NAME_ALLOWED.slice(1),
                            errorMessage: { pattern: STACK_NAME_MESSAGE, type: STACK_NAME_MESSAGE },
                        },
                        infraType: {
                            title: KEYS.infraType.key,
                            description: KEYS.infraType.description,
                            type: "string",
                            enum: [...INFRA_TYPES],
                            "ui:enumNames": INFRA_TYPES.map((t) => `${t}: ${PROVIDERS[t].title}`),
                            default: "aws",
                            errorMessage: fieldMessagesOfInfraType(),
                        },
                        owner: {
                            title: "Owner",
                            description: "Who owns the new repository's catalog entry.",
                            type: "string",
                            "ui:field": "OwnerPicker",
                            "ui:options": { catalogFilter: [{ kind: ["Group", "User"] }] },
                        },
                    },
                    allOf: INFRA_TYPES.map(branch),
                    errorMessage: { required: { stack: STACK_NAME_MESSAGE.replace("${0}", '""') } },
                },
                {
                    title: "Repository",
                    required: ["repoUrl"],
                    properties: {
                        repoUrl: {
                            title: "Repository",
                            description: "The new GitHub repository the stack file and the Argo CD Application are written to.",
                            type: "string",
                            "ui:field": "RepoUrlPicker",
                            "ui:options": { allowedHosts: ["github.com"] },
                        },
                    },
                },
            ],
            steps: [
                { id: "fetch", name: "Write the stack file and the Argo CD Application", action: "fetch:template", input: { url: "./skeleton", values } },
                {
                    id: "publish",
                    name: "Create the repository",
                    action: "publish:github",
                    input: { repoUrl: "${{ parameters.repoUrl }}", description: "MARA platform stack ${{ parameters.stack }}", defaultBranch: "main", repoVisibility: "private" },
                },
                {
                    id: "register",
                    name: "Register it in the catalog",
                    action: "catalog:register",
                    input: { repoContentsUrl: "${{ steps['publish'].output.repoContentsUrl }}", catalogInfoPath: "/catalog-info.yaml" },
                },
            ],
            output: {
                links: [
                    { title: "Repository", url: "${{ steps['publish'].output.remoteUrl }}" },
                    { title: "Open in catalog", icon: "catalog", entityRef: "${{ steps['register'].output.entityRef }}" },
                ],
            },
        },
    };
}

function fieldMessagesOfInfraType(): Record<string, string> {
    const allowed = KEYS.infraType.type.allowed;
    return { enum: `${KEYS.infraType.key} is not a known value. Allowed: ${allowed}`, type: `${KEYS.infraType.key} is not text. Allowed: ${allowed}` };
}

/** The text of templates/backstage/template.yaml. */
export function renderBackstageTemplate(): string {
    const header = [
        "# A Backstage software template: a new repository with a MARA stack file and its Argo CD Application.",
        "# Generated from config/keys.ts and cli/init/questions.ts by `npm run gen` (tools/backstageTemplate.ts): do not edit.",
        "# docs/backstage.md says how to register it, what it asks and what it writes.",
    ];
    return `${header.join("\n")}\n${stringify(templateDocument(), { lineWidth: 0 })}`;
}
