import './sourcemap-register.cjs';import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ // The require scope
/******/ var __nccwpck_require__ = {};
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:worker_threads"
const external_node_worker_threads_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");
;// CONCATENATED MODULE: ./src/workers/serve.ts
// The worker side of the pool: answers each task message with its result or error.

/** Answer the parent's task messages with `run` (the entry bundle chooses which tasks it can run, and so what it loads). */
function serveTasks(run) {
    const port = external_node_worker_threads_namespaceObject.parentPort;
    if (!port)
        throw new Error('serveTasks runs only in a worker thread');
    port.on('message', ({ id, task }) => {
        let reply;
        try {
            reply = { id, ok: true, result: run(task) };
        }
        catch (e) {
            const err = e instanceof Error ? e : new Error(String(e));
            reply = {
                id,
                ok: false,
                error: { name: err.name, message: err.message, ...(err.stack ? { stack: err.stack } : {}) }
            };
        }
        port.postMessage(reply);
    });
}

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_namespaceObject);
;// CONCATENATED MODULE: ./src/publish/write-tree.ts
// Writes a whole site tree so that readers only ever see the old tree or the
// new one: build it beside the target, then swap directories with renames.




class UnsafeOutputError extends (/* unused pure expression or super */ null && (Error)) {
    name = 'UnsafeOutputError';
}
/** The file that marks a directory as one we wrote, so we never replace anything else. */
const MARKER = 'api/v1/apps.json';
function isInside(child, parent) {
    const rel = path.relative(parent, child);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
/**
 * Refuse output directories whose replacement would destroy something: the
 * catalog, anything containing it, a git work tree, the filesystem root, or a
 * non-empty directory that is not a previous snapshot.
 */
async function checkOutputDir(outDir, guard) {
    const out = path.resolve(guard.cwd, outDir);
    const catalog = path.resolve(guard.cwd, guard.catalogDir);
    if (out === path.parse(out).root)
        throw new UnsafeOutputError(`refusing to write the site to the filesystem root (${out})`);
    if (isInside(catalog, out))
        throw new UnsafeOutputError(`refusing --out ${outDir}: it is, or contains, the catalog directory ${guard.catalogDir}`);
    if (isInside(out, catalog))
        throw new UnsafeOutputError(`refusing --out ${outDir}: it lies inside the catalog directory ${guard.catalogDir}`);
    if (existsSync(path.join(out, '.git')))
        throw new UnsafeOutputError(`refusing --out ${outDir}: it is a git repository root; write the site to a subdirectory`);
    if (existsSync(path.join(out, 'package.json')))
        throw new UnsafeOutputError(`refusing --out ${outDir}: it holds a package.json (a project root?)`);
    let entries = [];
    try {
        const info = await stat(out);
        if (!info.isDirectory())
            throw new UnsafeOutputError(`refusing --out ${outDir}: it exists and is not a directory`);
        entries = await readdir(out);
    }
    catch (e) {
        if (e instanceof UnsafeOutputError)
            throw e;
        return; // does not exist yet: fine
    }
    if (entries.length > 0 && !existsSync(path.join(out, MARKER))) {
        throw new UnsafeOutputError(`refusing --out ${outDir}: it is not empty and holds no ${MARKER}, so it is not an updatesafe snapshot we may replace`);
    }
}
/** A site path must be relative, POSIX, and free of `.`/`..` segments and odd characters. */
function assertSafeRelativePath(p) {
    const ok = p.length > 0 &&
        p.length <= 255 &&
        !p.startsWith('/') &&
        /^[A-Za-z0-9._/-]+$/.test(p) &&
        p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
    if (!ok)
        throw new UnsafeOutputError(`refusing to write unsafe path ${JSON.stringify(p)}`);
}
/**
 * Writes all of `text` to `fd`. Node 20's writeFileSync first copies a string
 * into a pooled Buffer; at 50,000 files V8 sometimes began to allocate those
 * Buffers in the old generation, which kept every copy alive until a full
 * collection and raised a 10,000-app build's peak RSS from about 250 MB to
 * 320 MB in a third of the runs. writeSync hands the string to C++ as it is.
 * write(2) on a regular file writes everything or fails; a short write is finished from a Buffer.
 */
function writeTextSync(fd, text, write = external_node_fs_namespaceObject.writeSync) {
    let done = write(fd, text);
    const size = Buffer.byteLength(text);
    if (done >= size)
        return;
    const bytes = Buffer.from(text);
    while (done < size)
        done += write(fd, bytes, done, size - done);
}
/**
 * Synchronous writes: tens of thousands of small files go several times faster
 * than through libuv's thread pool, where each file costs three round trips.
 * `wx`: a path produced twice fails instead of replacing the first copy.
 */
function writeFilesSync(files) {
    const made = new Set();
    for (const [dest, content] of files) {
        const dir = external_node_path_default().dirname(dest);
        if (!made.has(dir)) {
            (0,external_node_fs_namespaceObject.mkdirSync)(dir, { recursive: true });
            made.add(dir);
        }
        if (typeof content !== 'string') {
            (0,external_node_fs_namespaceObject.writeFileSync)(dest, content, { flag: 'wx' });
            continue;
        }
        const fd = (0,external_node_fs_namespaceObject.openSync)(dest, 'wx');
        try {
            writeTextSync(fd, content);
        }
        finally {
            (0,external_node_fs_namespaceObject.closeSync)(fd);
        }
    }
}
/**
 * Files and bytes per batch handed to `write`, and batches outstanding at once.
 * Small: rendered files held in a batch outlive a young-generation collection and
 * are promoted; batches of 500 files added about 40 MB to a 10,000-app build's peak RSS.
 */
const BATCH_FILES = 64;
const BATCH_BYTES = (/* unused pure expression or super */ null && (512 * 1024));
const BATCHES_IN_FLIGHT = 4;
/**
 * Write `files` as the complete content of `outDir`. Files may be produced
 * lazily (a generator), so a large site is never held in memory whole. `write`
 * may be asynchronous (a worker thread), so rendering goes on while the kernel
 * creates files; a bounded number of batches is outstanding at once.
 * `check` runs on the staged tree before the swap; if it (or anything else)
 * throws, `outDir` is untouched.
 */
async function writeTree(outDir, files, check = () => { }, write = writeFilesSync) {
    const target = path.resolve(outDir);
    const parent = path.dirname(target);
    const base = path.basename(target);
    const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
    const staging = path.join(parent, `.${base}.new-${tag}`);
    const retired = path.join(parent, `.${base}.old-${tag}`);
    await mkdir(parent, { recursive: true });
    let count = 0;
    const pending = new Set();
    const failures = [];
    const flush = async (batch) => {
        const done = write(batch);
        if (!done)
            return;
        const tracked = done
            .catch((e) => {
            failures.push(e);
        })
            .finally(() => pending.delete(tracked));
        pending.add(tracked);
        if (pending.size >= BATCHES_IN_FLIGHT)
            await Promise.race(pending);
    };
    try {
        let batch = [];
        let bytes = 0;
        for (const [rel, content] of files) {
            if (failures.length > 0)
                break;
            assertSafeRelativePath(rel);
            const dest = path.join(staging, ...rel.split('/'));
            if (!isInside(dest, staging))
                throw new UnsafeOutputError(`refusing to write outside the output directory: ${rel}`);
            batch.push([dest, content]);
            bytes += content.length;
            count++;
            if (batch.length >= BATCH_FILES || bytes >= BATCH_BYTES) {
                await flush(batch);
                batch = [];
                bytes = 0;
            }
        }
        if (batch.length > 0 && failures.length === 0)
            await flush(batch);
        await Promise.all(pending);
        if (failures.length > 0)
            throw failures[0];
        await mkdir(staging, { recursive: true });
        await check();
        const hadTarget = existsSync(target);
        if (hadTarget)
            await rename(target, retired);
        try {
            await rename(staging, target);
        }
        catch (e) {
            if (hadTarget)
                await rename(retired, target);
            throw e;
        }
        if (hadTarget)
            await rm(retired, { recursive: true, force: true });
    }
    finally {
        // Nothing may still be writing into the staging tree when it is removed.
        await Promise.all(pending);
        await rm(staging, { recursive: true, force: true });
    }
    return count;
}

;// CONCATENATED MODULE: ./src/workers/write.ts
// The one task a writing thread runs: a batch of files into the staging tree.

function runWrite(task) {
    if (task.kind !== 'write')
        throw new Error(`a writing thread runs only write tasks, not "${task.kind}"`);
    writeFilesSync(task.files);
    return task.files.length;
}

;// CONCATENATED MODULE: ./src/writer.ts
// Writing-thread entry (dist/writer/index.js): writes batches of files for the
// pool. A bundle without the parsers and the classifier, so a writing thread
// starts at about 10 MB instead of the 25 MB a thread of dist/worker takes.


serveTasks(runWrite);


//# sourceMappingURL=index.js.map