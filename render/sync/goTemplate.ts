/**
 * A model of Go's `text/template` for the few forms the render's ApplicationSet templates use, so the sync model can
 * replay what Argo CD's ApplicationSet controller makes of them (clusterGenerator.ts): literal text, and actions whose
 * pipeline is one operand, a field chain (`{{ .name }}`, `{{ .metadata.labels }}`, `{{ . }}`) or a string constant
 * (`{{ "{{" }}`, how a literal `{{` is written). Anything else (functions, pipes, `if`, `range`, variables, comments,
 * trim markers) is outside the model and throws {@link GoTemplateUnsupported}, so a template that uses it cannot pass
 * the model by accident.
 *
 * What it imitates (Go 1.26, text/template and text/template/parse): an action starts at every `{{` of the text,
 * wherever it comes from; a string constant inside an action may hold `{{` and `}}`; a field of a map is its entry,
 * and a missing entry is, with the option `missingkey=error`, the error `map has no entry for key "<key>"`, and
 * otherwise `<no value>`; a field of anything that is not a map is an error. Values substituted for an action are
 * written out and never parsed again. (A literal `{{` is written `{{"{{"}}`: components/argoCd/applicationSet.ts,
 * `goTemplateLiteral`.)
 */
import { isMap } from "../../contracts/kubeObject";

/** A template form outside the model (not an error Go would report). */
export class GoTemplateUnsupported extends Error {
    constructor(message: string) {
        super(message);
        this.name = "GoTemplateUnsupported";
    }
}

/** An error Go's text/template would report, parsing or executing. */
export class GoTemplateError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "GoTemplateError";
    }
}

/** What `missingkey=` says to do with a missing map entry (text/template `Template.Option`). */
export type MissingKey = "default" | "invalid" | "zero" | "error";

/** The `missingkey` option among Argo CD's `goTemplateOptions` (the last one wins, as each `Option` call overrides the last). */
export function missingKeyOption(options: readonly string[]): MissingKey {
    let mode: MissingKey = "default";
    for (const o of options) {
        const m = /^missingkey=(default|invalid|zero|error)$/.exec(o);
        if (!m) throw new GoTemplateError(`unrecognized option: ${o}`);
        mode = m[1] as MissingKey;
    }
    return mode;
}

type Node = { text: string } | { operand: { field: string[] } | { string: string } };

/** Reads a Go string constant (interpreted `"…"` or raw `` `…` ``) at the start of `s`; returns it and what follows. */
function stringConstant(s: string): { value: string; rest: string } {
    if (s[0] === "`") {
        const end = s.indexOf("`", 1);
        if (end < 0) throw new GoTemplateError("unterminated raw quoted string");
        return { value: s.slice(1, end), rest: s.slice(end + 1) };
    }
    let i = 1;
    let value = "";
    for (;;) {
        if (i >= s.length || s[i] === "\n") throw new GoTemplateError("unterminated quoted string");
        const c = s[i]!;
        if (c === '"') return { value, rest: s.slice(i + 1) };
        if (c === "\\") {
            const e = s[i + 1];
            const simple: Record<string, string> = { '"': '"', "\\": "\\", n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", "'": "'" };
            if (e !== undefined && e in simple) {
                value += simple[e];
                i += 2;
                continue;
            }
            throw new GoTemplateUnsupported(`the escape \\${e ?? ""} in a string constant is outside the model`);
        }
        value += c;
        i++;
    }
}

/** Splits a template into text and actions, as text/template/parse lexes it (delimiters `{{` and `}}`). */
export function parseGoTemplate(template: string): Node[] {
    const nodes: Node[] = [];
    let rest = template;
    while (rest.length > 0) {
        const open = rest.indexOf("{{");
        if (open < 0) {
            nodes.push({ text: rest });
            break;
        }
        if (open > 0) nodes.push({ text: rest.slice(0, open) });
        let inside = rest.slice(open + 2);
        if (/^-[ \t\r\n]/.test(inside)) throw new GoTemplateUnsupported("trim markers are outside the model");
        inside = inside.replace(/^[ \t\r\n]+/, "");
        if (inside.startsWith("/*")) throw new GoTemplateUnsupported("comments are outside the model");
        let operand: { field: string[] } | { string: string };
        if (inside[0] === '"' || inside[0] === "`") {
            const s = stringConstant(inside);
            operand = { string: s.value };
            inside = s.rest;
        } else if (inside[0] === ".") {
            const m = /^((?:\.[A-Za-z_][A-Za-z0-9_]*)+|\.)/.exec(inside)!;
            operand = { field: m[1] === "." ? [] : m[1]!.slice(1).split(".") };
            inside = inside.slice(m[1]!.length);
        } else {
            if (inside === "") throw new GoTemplateError("unclosed action");
            if (inside.startsWith("}}")) throw new GoTemplateError("missing value for command");
            // A word is a function or a keyword to Go; neither is in the model (Go itself refuses a function that no
            // function map defines, "function \"x\" not defined", when it parses).
            throw new GoTemplateUnsupported(`the action "{{${inside.slice(0, 20)}" is outside the model`);
        }
        inside = inside.replace(/^[ \t\r\n]+/, "");
        if (!inside.startsWith("}}")) {
            if (inside === "") throw new GoTemplateError("unclosed action");
            throw new GoTemplateUnsupported(`the rest of the action "${inside.slice(0, 20)}" (a pipeline, a trim marker) is outside the model`);
        }
        nodes.push({ operand });
        rest = inside.slice(2);
    }
    return nodes;
}

/** Executes a template parsed by {@link parseGoTemplate} with `data` as `.`. */
export function executeGoTemplate(template: string, data: unknown, missingKey: MissingKey): string {
    let out = "";
    for (const node of parseGoTemplate(template)) {
        if ("text" in node) {
            out += node.text;
            continue;
        }
        if ("string" in node.operand) {
            out += node.operand.string;
            continue;
        }
        let value: unknown = data;
        let present = true;
        for (const name of node.operand.field) {
            if (!present || value === undefined || value === null) throw new GoTemplateError(`nil pointer evaluating interface {}.${name}`);
            if (!isMap(value)) throw new GoTemplateError(`can't evaluate field ${name} in type ${Array.isArray(value) ? "[]interface {}" : typeof value}`);
            if (!Object.prototype.hasOwnProperty.call(value, name)) {
                if (missingKey === "error") throw new GoTemplateError(`map has no entry for key "${name}"`);
                present = false;
                value = undefined;
                continue;
            }
            value = value[name];
        }
        if (!present || value === undefined || value === null) {
            // missingkey=zero prints the zero value of the map's element type, which depends on Go types this model
            // does not keep (map[string]string prints "", map[string]any "<no value>").
            if (!present && missingKey === "zero") throw new GoTemplateUnsupported("missingkey=zero is outside the model");
            // An invalid value (a missing entry under missingkey=default or invalid) and nil print as "<no value>".
            out += "<no value>";
            continue;
        }
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out += String(value);
        else throw new GoTemplateUnsupported("printing a map or a list is outside the model");
    }
    return out;
}
