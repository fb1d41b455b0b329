/**
 * Collects the first-run settings: from `--set` flags, the environment, or prompts. Every typed answer
 * is checked with the program's own value types before it is accepted, so nothing reaches the stack
 * that `pulumi up` would reject.
 */
import { INFRA_TYPES, InfraType, KEYS, KeyId } from "../../config";
import { CliError, CliIo, EXIT, line } from "../kernel/io";
import { configuredInfraType } from "../stack/providerLock";
import { PROVIDERS } from "./providers";
import { checkValue, isSet, storedKey } from "./keys";
import { PASSWORDS, Question, QUESTIONS } from "./questions";

/** One setting to write. */
export interface Answer {
    /** The stored form (normalised by the key's type). */
    readonly value: string;
    readonly secret: boolean;
}

/** Settings to write, by key-table id. */
export type Answers = Map<KeyId, Answer>;

/** What {@link collectAnswers} starts from. */
export interface CollectInput {
    readonly io: CliIo;
    readonly stack: string;
    /** Values already in the stack file. */
    readonly existing: Readonly<Record<string, string>>;
    /** Values from `--set`. */
    readonly sets: ReadonlyMap<KeyId, string>;
    /** Infra type asked for with `--provider`. */
    readonly requested?: InfraType;
}

const answer = (id: KeyId, value: string): Answer => ({ value, secret: KEYS[id].secret === true });

/** The default shown for a question: from the environment, the key table, or a suggestion. */
function suggestion(q: Question, io: CliIo): string | undefined {
    const fromEnv = q.env?.map((e) => io.env[e]).find((v) => v !== undefined && v !== "");
    const spec = KEYS[q.id] as { default?: unknown; type: { render(v: never): string } };
    return fromEnv ?? (spec.default !== undefined ? spec.type.render(spec.default as never) : q.suggest?.(io.env));
}

/**
 * Asks one question until the answer parses, with hidden input for secrets.
 *
 * @returns the stored form, or undefined when an optional question was left empty.
 */
export async function ask(io: CliIo, q: Question, fallback?: string): Promise<string | undefined> {
    const spec = KEYS[q.id];
    const message = `${spec.key}: ${spec.description}${q.optional ? " (optional; Enter skips)" : ""}`;
    const validate = (text: string) => {
        if (q.optional && text.trim() === "") return true;
        const checked = checkValue(q.id, text);
        return checked.ok ? true : `${spec.key} ${checked.reason}`;
    };
    const text = spec.secret
        ? await io.prompter.password({ message, validate })
        : await io.prompter.input({ message, default: fallback ?? suggestion(q, io), validate });
    if (q.optional && text.trim() === "") return undefined;
    const checked = checkValue(q.id, text);
    return checked.ok ? checked.value : undefined;
}

/** Picks the infra type: from the flags, the stack file, or a menu listing each type and what it creates. */
async function infraType(input: CollectInput, answers: Answers): Promise<InfraType | undefined> {
    const fromSet = (answers.get("infraType")?.value ?? input.sets.get("infraType")) as InfraType | undefined;
    const chosen = fromSet ?? input.requested ?? configuredInfraType(input.existing);
    if (chosen || !input.io.prompter.interactive) return chosen;
    return input.io.prompter.select<InfraType>({
        message: "Where should the cluster come from? (kubernetes:infra_type)",
        choices: INFRA_TYPES.map((t) => ({ value: t, name: `${t}: ${PROVIDERS[t].title} (MARA: ${PROVIDERS[t].maraName})`, description: PROVIDERS[t].creates })),
        default: "aws",
    });
}

/**
 * Gathers every setting the stack still needs. Interactively it asks; otherwise it takes `--set` values
 * and the environment, and fails listing everything that is missing.
 *
 * @throws CliError listing each missing key and how to give it, when not interactive.
 */
export async function collectAnswers(input: CollectInput): Promise<{ infraType: InfraType; answers: Answers }> {
    const { io, existing } = input;
    // A --set value the stack already has (in any spelling, e.g. MARA's "AWS") changes nothing.
    const unchanged = (id: KeyId, v: string) => {
        const current = existing[storedKey(id, existing)];
        return current !== undefined && checkValue(id, current).ok && (checkValue(id, current) as { value: string }).value === v;
    };
    const answers: Answers = new Map([...input.sets].filter(([id, v]) => !unchanged(id, v)).map(([id, v]) => [id, answer(id, v)]));
    const missing: string[] = [];

    const type = await infraType(input, answers);
    if (!type) {
        missing.push(`${KEYS.infraType.key} (kubernetes:infra_type): ${KEYS.infraType.description} Give it with --provider aws or --set ${KEYS.infraType.key}=aws`);
    } else if (!answers.has("infraType") && configuredInfraType(existing) !== type) {
        answers.set("infraType", answer("infraType", type));
    }

    for (const q of type ? QUESTIONS[type] : []) {
        if (answers.has(q.id) || isSet(q.id, existing)) continue;
        const envName = q.env?.find((e) => io.env[e] !== undefined && io.env[e] !== "");
        if (envName && !q.storeEnv) {
            line(io.stderr, `Using ${envName} from the environment for ${KEYS[q.id].key} (not stored in the stack).`);
            continue;
        }
        if (io.prompter.interactive) {
            const value = await ask(io, q);
            if (value !== undefined) answers.set(q.id, answer(q.id, value));
        } else if (envName) {
            const checked = checkValue(q.id, io.env[envName]!);
            if (!checked.ok) throw new CliError(`${envName} ${checked.reason}`, EXIT.usage);
            answers.set(q.id, answer(q.id, checked.value));
        } else if (KEYS[q.id].secret) {
            // Validation does not require a token (it may be exported later); the pre-flight checks of `up` do.
            line(io.stderr, `warning: ${KEYS[q.id].key} is not set${q.env ? ` and ${q.env[0]} is not exported` : ""}; \`mara up\` will need one.`);
        } else if (!q.optional && (KEYS[q.id] as { default?: unknown }).default === undefined) {
            missing.push(missingLine(q));
        }
    }
    if (missing.length > 0) {
        throw new CliError(
            `cannot configure stack "${input.stack}" without prompts; ${missing.length} setting${missing.length === 1 ? " is" : "s are"} missing:\n` +
                missing.map((m) => `  - ${m}`).join("\n"),
        );
    }
    // Passwords are optional (generated otherwise), so they are offered once, on the first run only.
    if (io.prompter.interactive && Object.keys(existing).length === 0) await askPasswords(io, existing, answers);
    return { infraType: type!, answers };
}

function missingLine(q: Question): string {
    const spec = KEYS[q.id];
    const example = spec.example ?? "<value>";
    const env = q.env?.length ? `, or export ${q.env[0]}` : "";
    return `${spec.key}: ${spec.description} Give it with --set ${spec.key}=${spec.secret ? "<secret>" : example}${env}`;
}

/** MARA prompted for every password; here they are generated unless the user wants to choose them. */
async function askPasswords(io: CliIo, existing: Readonly<Record<string, string>>, answers: Answers): Promise<void> {
    const open = PASSWORDS.filter((id) => !answers.has(id) && !isSet(id, existing));
    if (open.length === 0) return;
    const choose = await io.prompter.confirm({
        message: "Choose the platform's passwords (Grafana, Bank of Sirius databases and demo login) now? Otherwise each is generated once and kept encrypted in the stack's state.",
        default: false,
    });
    if (!choose) return;
    for (const id of open) {
        const value = await ask(io, { id });
        if (value !== undefined) answers.set(id, answer(id, value));
    }
}
