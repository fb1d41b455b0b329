/** Which npm package a loaded file belongs to, and which SDK packages a set of registrations needs. */

/** The package a module file belongs to (`@pulumi/aws` for .../node_modules/@pulumi/aws/ec2/vpc.js). */
export function packageOf(file: string): string | undefined {
    const parts = file.split(/[\\/]/);
    const i = parts.lastIndexOf("node_modules");
    if (i < 0 || i + 1 >= parts.length) return undefined;
    return parts[i + 1]!.startsWith("@") ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1];
}

/**
 * The npm package whose SDK a registration of type `type` needs: `@pulumi/aws` for
 * `aws:ec2/vpc:Vpc` and `pulumi:providers:aws`; undefined for the program's own components and for
 * `pulumi-nodejs:dynamic:*` resources, which @pulumi/pulumi itself provides.
 */
export function sdkOf(type: string): string | undefined {
    const pkg = type.startsWith("pulumi:providers:") ? type.split(":")[2]! : type.split(":")[0]!;
    if (pkg === "mara" || pkg === "pulumi" || pkg === "pulumi-nodejs") return undefined;
    return `@pulumi/${pkg}`;
}

/** The SDK packages a set of registrations needs, sorted. */
export function sdksOf(types: Iterable<string>): string[] {
    return [...new Set([...types].map(sdkOf).filter((p): p is string => !!p))].sort();
}
