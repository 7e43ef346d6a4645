import * as v from 'valibot';
import { Timestamp } from './shared.ts';

/** The notificationservice: a notification posted, and the frames of its socket. */

/** POST /notifications. */
export const NotificationBody = v.object({
  title: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(200)),
  body: v.pipe(v.string(), v.maxLength(5000)),
});

export const NotificationSchema = v.strictObject({
  id: v.pipe(v.string(), v.uuid()),
  title: v.string(),
  body: v.string(),
  createdAt: Timestamp,
  createdBy: v.string(),
});

/** The answer to a post: the notification and how many open sockets it was sent to. */
export const NotificationPostedSchema = v.strictObject({
  notification: NotificationSchema,
  delivered: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

export type NotificationInput = v.InferInput<typeof NotificationBody>;
export type Notification = v.InferOutput<typeof NotificationSchema>;

/**
 * The frame the document service sends a workspace's sockets when it issued a document of a
 * record (issue 19): a policy's schedule, a claim's acknowledgement, an invoice. Open screens
 * read their documents again on it instead of guessing when the document is there.
 */
export const DOCUMENT_ISSUED = { kind: 'document.issued' } as const;

export interface DocumentIssuedFrame {
  type: 'notification';
  kind: typeof DOCUMENT_ISSUED.kind;
  code: string;
  entityType: string;
  entityId: string;
  policyCode: string | null;
}
