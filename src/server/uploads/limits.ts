// What reading one document may cost the server (DESIGN.md §4: anything a visitor can send has
// a bounded cost). A DOCX or PDF is read in a worker thread (extractPool.ts) whose heap, time
// and unpacked bytes are capped here; a file that passes a cap is refused with a message saying
// which, and nothing else on the server notices. The figures and their reasons:
//
// - What a DOCX unpacks to is counted on the bytes the inflater actually produces, never on the
//   sizes the archive's directory claims (its author writes those). Only the parts the text
//   comes from are unpacked (the document, its relationships, the content types), so pictures
//   do not count; 48 MB of such XML is a book of several thousand pages, which the time limit
//   would stop anyway (mammoth reads ~3 MB of XML a second).
// - The worker's heap (resourceLimits): 64 MB + 16 MB. mammoth is given the document a few
//   hundred KB at a time (docxBody.ts), which takes ~20 MB; pdf.js keeps one page at a time.
// - Its ArrayBuffers, which V8 does not cap: 96 MB, watched every 20 ms. V8 collects such
//   garbage only once ~64 MB of it has piled up, and the file itself is 10 MB.
//   With the isolate's own ~15 MB, a worker's worst case is ~190 MB of the process (plus what
//   one 20 ms watch lets through); the tests measure 0-100 MB of growth per hostile file.
// - Two workers at most (the machines are 2 cores), four files waiting at most: ten hostile
//   files at once cost two workers' worth, and the rest are told to try again.
// - Time: 4 s a document (the tests' bound for a hostile file is 5 s). A 2,000-page PDF reads
//   in ~1 s, a 20,000-paragraph DOCX in ~3 s, on one core of the 2-core machines.
// - Pages: 2,000; more real pages are refused before one is read (pdf.js itself checks a
//   /Count that claims more pages than the tree holds).
// - Text: at most 10 M characters come back, as much as the largest text file (10 MB) makes,
//   so a store indexes as much from a DOCX as from a .txt.
import { UPLOAD_MAX_BYTES } from '../../core/constants.ts';

const MB = 1024 * 1024;

/** Bytes a DOCX's parts may unpack to, in all, counted on the inflater's output. */
export const DOCX_MAX_UNPACKED = 48 * MB;
/** Entries a DOCX may list (the upload check refuses more too). */
export const ZIP_MAX_ENTRIES = 5_000;
/** Pages a PDF may have. */
export const PDF_MAX_PAGES = 2_000;
/** Wall time a worker has for one document. */
export const EXTRACT_TIME_MS = 4_000;
/** The worker's V8 heap: old generation, young generation (resourceLimits). */
export const EXTRACT_HEAP_MB = 64;
export const EXTRACT_YOUNG_MB = 16;
/** The worker's ArrayBuffers (V8 does not cap them), watched every EXTRACT_WATCH_MS. */
export const EXTRACT_EXTERNAL_MB = 96;
export const EXTRACT_WATCH_MS = 20;
/** What the person is told a document needed more than. */
export const EXTRACT_MEMORY_MB = EXTRACT_HEAP_MB + EXTRACT_YOUNG_MB + EXTRACT_EXTERNAL_MB;
/** Documents read at once, and documents that may wait for a worker. */
export const EXTRACT_WORKERS = 2;
export const EXTRACT_QUEUE = 4;
/** A worker with nothing to do ends after this long (it is started again when needed). */
export const EXTRACT_IDLE_MS = 30_000;
/** Characters of text one document gives at most. */
export const TEXT_MAX_CHARS = UPLOAD_MAX_BYTES;
