/**
 * The name of a Pulumi stack as the Pulumi CLI and service accept it, for the stack the Pulumi Kubernetes Operator
 * deploys (`mara:operatorStack`, the `Stack` custom resource's `spec.stack`). Pulumi's rules
 * (pulumi/pulumi pkg/backend/httpstate/backend.go, `validateStackName`: `stackNameAndProjectRegexp`
 * `^[A-Za-z0-9_.-]{1,100}$`, the same for a project; pkg/backend/diy/backend.go likewise): `stack`, `org/stack` or
 * `org/project/stack`, each part 1 to 100 of letters, digits, `-`, `_` and `.`. A part of dots alone is refused too:
 * the stack's name becomes the file name `Pulumi.<stack>.yaml` the operator looks for in the repository.
 */

const PART = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * The same rule as one pattern without flags, for `mara init`, `--stack` and the Backstage template's form
 * (tools/backstageTemplate.ts), which need a pattern: one to three parts, each 1 to 100 of the characters above and not
 * dots alone. test/unit/pulumiStack.test.ts holds it to {@link operatorStackProblem}'s verdicts.
 */
export const STACK_NAME_PATTERN = /^(?!\.+(?:\/|$))[A-Za-z0-9_.-]{1,100}(?:\/(?!\.+(?:\/|$))[A-Za-z0-9_.-]{1,100}){0,2}$/;

/** Why `stack` is not a stack name Pulumi accepts, or undefined when it is. */
export function operatorStackProblem(stack: string): string | undefined {
    if (stack.trim() === "") return "is empty";
    const parts = stack.split("/");
    if (parts.length > 3) return `has ${parts.length} parts separated by '/', and a stack name has at most three (org/project/stack)`;
    for (const part of parts) {
        if (part === "") return "has an empty part (a '/' at either end, or '//')";
        if (part.length > 100) return `has a part of ${part.length} characters, and Pulumi allows at most 100`;
        if (!PART.test(part)) return `has the part "${part}", with a character Pulumi refuses in a stack name`;
        if (/^\.+$/.test(part)) return `has the part "${part}", only dots, which would name a file outside the project`;
    }
    return undefined;
}

/** What a stack name may be, in the words messages use after "Allowed:". */
export const OPERATOR_STACK_ALLOWED = "a stack name as pulumi stack select takes it: stack, org/stack or org/project/stack, each part 1 to 100 letters, digits, '-', '_' or '.'";
