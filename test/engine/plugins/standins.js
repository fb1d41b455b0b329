// Stand-ins for the `random` and `tls` resource plugins, used by the real-engine test tier only.
//
// Why stand-ins: both are Terraform-bridged providers (pulumi-random, pulumi-tls) whose Go modules the module proxy
// this project builds from does not serve, so the real plugins cannot be built here. The program uses three of their
// resources; each is served here with the behaviour the Terraform providers document for the fields the program
// sets, through @pulumi/pulumi's own provider server (the same gRPC protocol the real plugins speak):
//   - random:index/randomPassword:RandomPassword and random:index/randomString:RandomString
//     (terraform-provider-random docs, resources/password and resources/string): `length` characters from the
//     enabled classes (upper, lower, numeric, special or overrideSpecial), at least min{Upper,Lower,Numeric,Special}
//     of each, drawn with a CSPRNG; every input forces replacement; `keepers` too. `bcryptHash` is not produced.
//   - tls:index/privateKey:PrivateKey (terraform-provider-tls docs, resources/private_key): RSA of `rsaBits`
//     (default 2048) or ECDSA of `ecdsaCurve`; PEM outputs (PKCS#1 for RSA as the provider writes it, PKCS#8, SPKI
//     public key), the OpenSSH public key and its fingerprints. `privateKeyOpenssh` is not produced.
// Anything the program does not use is refused with a message naming this file, so a new use fails loudly here.
"use strict";

const crypto = require("crypto");
const path = require("path");

function sdk() {
    for (const base of [process.cwd(), __dirname]) {
        try { return require(require.resolve("@pulumi/pulumi/provider", { paths: [base] })); } catch { /* next */ }
    }
    throw new Error("@pulumi/pulumi is not installed; run npm ci");
}

const CLASSES = {
    upper: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    lower: "abcdefghijklmnopqrstuvwxyz",
    numeric: "0123456789",
    special: "!@#$%&*()-_=+[]{}<>:?",
};

function randomString(inputs) {
    const length = Number(inputs.length);
    if (!Number.isInteger(length) || length < 1) throw new Error(`length must be a whole number of at least 1, got ${inputs.length}`);
    const on = (k) => inputs[k] !== false;
    const special = inputs.overrideSpecial !== undefined && inputs.overrideSpecial !== "" ? String(inputs.overrideSpecial) : CLASSES.special;
    const sets = {
        upper: on("upper") ? CLASSES.upper : "",
        lower: on("lower") ? CLASSES.lower : "",
        numeric: on("numeric") && inputs.number !== false ? CLASSES.numeric : "",
        special: on("special") ? special : "",
    };
    const mins = { upper: inputs.minUpper, lower: inputs.minLower, numeric: inputs.minNumeric, special: inputs.minSpecial };
    const pick = (set) => set[crypto.randomInt(set.length)];
    const chars = [];
    for (const [cls, min] of Object.entries(mins)) {
        for (let i = 0; i < Number(min ?? 0); i++) {
            if (!sets[cls]) throw new Error(`min${cls[0].toUpperCase()}${cls.slice(1)} is set but that class is disabled`);
            chars.push(pick(sets[cls]));
        }
    }
    const all = Object.values(sets).join("");
    if (!all) throw new Error("every character class is disabled");
    while (chars.length < length) chars.push(pick(all));
    for (let i = chars.length - 1; i > 0; i--) {
        const j = crypto.randomInt(i + 1);
        [chars[i], chars[j]] = [chars[j], chars[i]];
    }
    return chars.slice(0, Math.max(length, 0)).join("");
}

function sshPublicKey(publicKey) {
    const jwk = publicKey.export({ format: "jwk" });
    const enc = (b) => { const len = Buffer.alloc(4); len.writeUInt32BE(b.length); return Buffer.concat([len, b]); };
    const mpint = (b64) => { let b = Buffer.from(b64, "base64url"); if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]); return b; };
    if (jwk.kty === "RSA") {
        const blob = Buffer.concat([enc(Buffer.from("ssh-rsa")), enc(mpint(jwk.e)), enc(mpint(jwk.n))]);
        return { line: `ssh-rsa ${blob.toString("base64")}\n`, blob };
    }
    const curve = { "P-256": "nistp256", "P-384": "nistp384", "P-521": "nistp521" }[jwk.crv];
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]);
    const type = `ecdsa-sha2-${curve}`;
    const blob = Buffer.concat([enc(Buffer.from(type)), enc(Buffer.from(curve)), enc(point)]);
    return { line: `${type} ${blob.toString("base64")}\n`, blob };
}

function privateKey(inputs) {
    const algorithm = inputs.algorithm;
    let pair;
    if (algorithm === "RSA") {
        pair = crypto.generateKeyPairSync("rsa", { modulusLength: Number(inputs.rsaBits ?? 2048) });
    } else if (algorithm === "ECDSA") {
        const curve = { P224: "P-224", P256: "P-256", P384: "P-384", P521: "P-521" }[inputs.ecdsaCurve ?? "P224"];
        pair = crypto.generateKeyPairSync("ec", { namedCurve: curve });
    } else {
        throw new Error(`algorithm ${algorithm} is not served by the tls stand-in (${path.basename(__filename)}); RSA and ECDSA are`);
    }
    const ssh = sshPublicKey(pair.publicKey);
    const md5 = crypto.createHash("md5").update(ssh.blob).digest("hex").match(/../g).join(":");
    return {
        privateKeyPem: pair.privateKey.export({ type: algorithm === "RSA" ? "pkcs1" : "sec1", format: "pem" }),
        privateKeyPemPkcs8: pair.privateKey.export({ type: "pkcs8", format: "pem" }),
        publicKeyPem: pair.publicKey.export({ type: "spki", format: "pem" }),
        publicKeyOpenssh: ssh.line,
        publicKeyFingerprintMd5: md5,
        publicKeyFingerprintSha256: `SHA256:${crypto.createHash("sha256").update(ssh.blob).digest("base64").replace(/=+$/, "")}`,
    };
}

const RESOURCES = {
    "random:index/randomPassword:RandomPassword": (inputs) => ({ result: randomString(inputs) }),
    "random:index/randomString:RandomString": (inputs) => ({ result: randomString(inputs) }),
    "tls:index/privateKey:PrivateKey": privateKey,
};

/** Serves one package's resources; every input change replaces, as in both Terraform providers. */
function serve(pkg, version) {
    const typeOf = (urn) => urn.split("::")[2].split("$").pop();
    const provider = {
        version,
        async check(urn, _olds, news) {
            if (!RESOURCES[typeOf(urn)]) {
                return { inputs: news, failures: [{ property: "", reason: `${typeOf(urn)} is not served by the ${pkg} stand-in (${path.basename(__filename)})` }] };
            }
            return { inputs: news };
        },
        async diff(_id, _urn, olds, news) {
            const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
            const outs = new Set(["result", "privateKeyPem", "privateKeyPemPkcs8", "publicKeyPem", "publicKeyOpenssh", "publicKeyFingerprintMd5", "publicKeyFingerprintSha256", "id"]);
            const replaces = [...keys].filter((k) => !outs.has(k) && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
            return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
        },
        async create(urn, inputs) {
            return { id: crypto.randomUUID(), outs: { ...inputs, ...RESOURCES[typeOf(urn)](inputs) } };
        },
        async read(id, _urn, props) {
            return { id, props };
        },
        async delete() { /* nothing outside the state */ },
    };
    return sdk().main(provider, process.argv.slice(2));
}

module.exports = { serve, randomString, privateKey };
