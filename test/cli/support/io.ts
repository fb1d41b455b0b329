/** Runs `mara` commands in-process with captured output and injected answers (no terminal is driven). */
import * as os from "os";
import { main } from "../../../cli/mara";
import type { CliIo } from "../../../cli/kernel/io";
import { TEST_DAY } from "../../support/config";
import type { Choice, Prompter, Validate } from "../../../cli/kernel/prompts";

/** A question the scripted prompter was asked. */
export interface Asked {
    kind: "select" | "input" | "password" | "confirm";
    message: string;
    default?: string | boolean;
    choices?: string[];
    /** Messages from `validate` for rejected answers. */
    rejected: string[];
}

/**
 * A prompter that answers from a script, in order. Like the terminal prompts, `input` and `password`
 * ask again while `validate` rejects the answer, taking the next scripted one; an empty answer takes the
 * default. Running out of answers fails the test with the question that was not expected.
 */
export function scriptedPrompter(answers: (string | boolean)[]): Prompter & { asked: Asked[] } {
    const queue = [...answers];
    const asked: Asked[] = [];
    const next = (q: Asked) => {
        asked.push(q);
        if (queue.length === 0) throw new Error(`unexpected question: ${q.message}`);
        return queue.shift()!;
    };
    const text = async (kind: "input" | "password", q: { message: string; default?: string; validate?: Validate }) => {
        const record: Asked = { kind, message: q.message, default: q.default, rejected: [] };
        for (let a = next(record); ; a = next(record)) {
            const answer = a === "" && q.default !== undefined ? q.default : String(a);
            const verdict = q.validate ? q.validate(answer) : true;
            if (verdict === true) return answer;
            record.rejected.push(verdict);
            asked.pop();
        }
    };
    return {
        interactive: true,
        asked,
        async select<T extends string>(q: { message: string; choices: readonly Choice<T>[]; default?: T }) {
            const a = String(next({ kind: "select", message: q.message, default: q.default, choices: q.choices.map((c) => c.value), rejected: [] }));
            if (!q.choices.some((c) => c.value === a)) throw new Error(`"${a}" is not a choice of: ${q.message}`);
            return a as T;
        },
        input: (q) => text("input", q),
        password: (q) => text("password", q),
        async confirm(q) {
            return Boolean(next({ kind: "confirm", message: q.message, default: q.default, rejected: [] }));
        },
    };
}

/** A prompter for runs without a terminal: any question fails the test. */
export const noTerminal: Prompter = {
    interactive: false,
    select: () => Promise.reject(new Error("prompted without a terminal")),
    input: () => Promise.reject(new Error("prompted without a terminal")),
    password: () => Promise.reject(new Error("prompted without a terminal")),
    confirm: () => Promise.reject(new Error("prompted without a terminal")),
};

/** What one in-process run printed and returned. */
export interface Run {
    code: number;
    stdout: string;
    stderr: string;
}

/** Options of {@link runMara}. */
export interface RunOptions {
    prompter?: Prompter;
    env?: Record<string, string | undefined>;
    cwd?: string;
    projectDir?: string;
    /** Piped input; none by default (a terminal). */
    stdin?: CliIo["stdin"];
}

/** Runs one `mara` command line in this process. */
export async function runMara(argv: string[], o: RunOptions = {}): Promise<Run> {
    let stdout = "";
    let stderr = "";
    const io: CliIo = {
        stdout: { write: (s: string) => (stdout += s) },
        stderr: { write: (s: string) => (stderr += s) },
        stdin: o.stdin,
        prompter: o.prompter ?? noTerminal,
        // Rules that depend on the day are checked for a fixed one, unless the test names another.
        env: { MARA_TODAY: TEST_DAY, ...(o.env ?? { HOME: os.tmpdir(), PATH: process.env.PATH }) },
        cwd: o.cwd ?? process.cwd(),
        projectDir: o.projectDir ?? process.cwd(),
        colour: false,
    };
    const code = await main(argv, io);
    return { code, stdout, stderr };
}
