/** What every Bank of Sirius builder needs from the Application it builds for. */
import type * as pulumi from "@pulumi/pulumi";

/** The Application a builder adds children to. */
export interface SiriusScope {
    /** The Application's name, the prefix of every child's name. */
    readonly name: string;
    /** The Application itself, parent of every child. */
    readonly parent: pulumi.Resource;
    /** The namespace's name, taken from the Namespace resource so that every object waits for it. */
    readonly namespace: pulumi.Output<string>;
}

/** Object metadata in the application's namespace. */
export function metadata(scope: SiriusScope, name: string, labels?: Record<string, string>): { name: string; namespace: pulumi.Output<string>; labels?: Record<string, string> } {
    return { name, namespace: scope.namespace, ...(labels ? { labels } : {}) };
}
