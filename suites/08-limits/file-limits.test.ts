// Spec 8 and 2.14 (capabilities.fileUpload), ruled by C-22 and C-46: a file of exactly maxFileSize
// decoded bytes is accepted and one byte more is refused (-32602, field, limit, actual); a type outside
// supportedTypes is refused naming its mimeType; with uploads off, any file part is refused.
// The checks run concurrently: the two large requests overlap.
import { ERROR_CODES, is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { concreteType, fileUploadOf, requireSupportedTypes } from '../support/card.ts';
import { errorData, expectOverLimit, expectSendAccepted } from '../support/errors.ts';
import { fileOfSize, filePart, messageParams, textPart } from '../support/messages.ts';
import { errorOf, resultOf } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
  // Files of maxFileSize, base64 in the body: megabytes that take a second over a slow link, so the
  // file starts with the long ones rather than ending the run alone.
  span: 'long',
});

// Largest file the checks send (Base64 makes the request a third bigger).
const MAX_EXERCISED_FILE = 16 * 1024 * 1024;
const GUIDANCE_BYTES = 5 * 1024 * 1024;
const UNSUPPORTED_CANDIDATES = [
  'application/x-a2a-conformance-unsupported',
  'model/x-a2a-conformance',
  'x-a2a-conformance/unsupported',
];

function requireMaxFileSize(c: CheckContext): number {
  const max = fileUploadOf(c).maxFileSize;
  if (max === undefined || !Number.isInteger(max) || max < 0) {
    c.notExercised('the agent card reports no capabilities.fileUpload.maxFileSize');
  }
  if (max > MAX_EXERCISED_FILE)
    c.notExercised(`maxFileSize ${max} is above the ${MAX_EXERCISED_FILE} bytes sent`);
  return max;
}

/** A type the card accepts, preferring the one for arbitrary bytes. */
function anyType(c: CheckContext): string {
  const types = requireSupportedTypes(c);
  return types.includes('application/octet-stream') ? 'application/octet-stream' : types[0]!;
}

/** The file of exactly maxFileSize bytes, sent once for the checks of this file. */
const atLimit = sharedSample('atLimit', { requests: 0, turns: 0 }, async (c) => {
  const max = requireMaxFileSize(c);
  const parts = [
    textPart('a file of exactly maxFileSize bytes'),
    fileOfSize(max, 'at-limit.bin', anyType(c)),
  ];
  return { max, ex: await c.rpc('message/send', messageParams(parts), { timeoutMs: 30_000 }) };
});

verifies(
  '8/max-file-size',
  'a file of exactly maxFileSize bytes is accepted',
  async (c) => {
    const { ex } = await atLimit(c);
    expectSendAccepted(c, ex);
  },
  { concurrent: true },
);

verifies(
  '8/max-file-size',
  'one byte over maxFileSize: -32602 with field, limit and actual',
  async (c) => {
    const max = requireMaxFileSize(c);
    const parts = [textPart('a file one byte too big'), fileOfSize(max + 1, 'over-limit.bin', anyType(c))];
    const ex = await c.rpc('message/send', messageParams(parts), { timeoutMs: 30_000 });
    expectOverLimit(c, ex, { field: 'message.parts[1].file.bytes', limit: max, actual: max + 1 });
  },
  { concurrent: true },
);

verifies(
  '8/file-size-guidance',
  "the card's maxFileSize, not the 5 MB guidance, is what is enforced",
  async (c) => {
    const { max, ex } = await atLimit(c);
    c.check(`a file of maxFileSize (${max}) bytes: error`, errorOf(ex), is.absent());
    c.info(
      max > GUIDANCE_BYTES
        ? `maxFileSize ${max} is above the 5 MB guidance: the card, not the guidance, is the limit`
        : `maxFileSize ${max} is within the 5 MB guidance`,
    );
  },
  { concurrent: true },
);

function unsupportedType(c: CheckContext): string {
  const entries = fileUploadOf(c).supportedTypes.map((t) => t.split(';')[0]!.trim().toLowerCase());
  const covered = (type: string) =>
    entries.some((e) => e === type || e === '*/*' || e === `${type.split('/')[0]}/*`);
  const type = UNSUPPORTED_CANDIDATES.find((t) => !covered(t));
  if (type === undefined) c.notExercised(`supportedTypes ${JSON.stringify(entries)} accept every type tried`);
  return type;
}

verifies(
  '8/file-supported-types',
  'a type outside supportedTypes: -32602 naming its mimeType',
  async (c) => {
    const type = unsupportedType(c);
    const parts = [textPart('an unsupported type'), filePart('odd.bin', type, 'hello')];
    const ex = await c.rpc('message/send', messageParams(parts));
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
    c.check('error.data.field', errorData(ex)?.field, 'message.parts[1].file.mimeType');
    c.check('result', resultOf(ex), is.absent());
  },
  { concurrent: true },
);

verifies(
  '8/file-supported-types',
  'every type in supportedTypes is accepted',
  async (c) => {
    const types = [...new Set(fileUploadOf(c).supportedTypes.map(concreteType))];
    if (types.length === 0) c.notExercised('the agent card lists no supportedTypes');
    const files = types.map((t, i) => filePart(`typed-${i}.bin`, t, `content ${i}`));
    const ex = await c.rpc(
      'message/send',
      messageParams([textPart('one file per supported type'), ...files]),
    );
    expectSendAccepted(c, ex);
  },
  { concurrent: true },
);

verifies(
  '8/file-upload-unsupported',
  'with uploads off, a file part gets -32602 naming the part',
  async (c) => {
    const supported = fileUploadOf(c).supported;
    if (supported !== false) {
      c.notApplicable(
        `the agent card says capabilities.fileUpload.supported is ${JSON.stringify(supported)}`,
      );
    }
    const parts = [textPart('uploads are off'), filePart('a.txt', 'text/plain', 'hello')];
    const ex = await c.rpc('message/send', messageParams(parts));
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
    c.check('error.data.field', errorData(ex)?.field, 'message.parts[1]');
    c.check('result', resultOf(ex), is.absent());
  },
  { concurrent: true },
);
