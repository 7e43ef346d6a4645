import { useEffect } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { DocumentIssuedFrame } from '#common/contracts/notification.ts';
import { NotificationSocketContext } from '#client/api/notification-socket-context.ts';
import { isDocumentIssued } from '#client/api/notification-socket.ts';

/**
 * Reads document lists (`queryKey`) again when the document service says it issued a document
 * they `concern`: a schedule comes just after its policy was saved, an acknowledgement after its
 * claim, an IPID after a product version went live, each on another service's event, so a list
 * read with the save's answer does not have it yet. The record lists pass every account's list
 * (`documentQueries.all`): a policy's list shows its claims' documents too.
 */
export function useIssuedDocuments(
  queryKey: QueryKey,
  concerns: (frame: DocumentIssuedFrame) => boolean = () => true,
): void {
  const queryClient = useQueryClient();
  const lastMessage = NotificationSocketContext.useSelector((s) => s.context.lastMessage);
  const keyText = JSON.stringify(queryKey);
  useEffect(() => {
    if (isDocumentIssued(lastMessage) && concerns(lastMessage))
      void queryClient.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey });
    // Only a new frame asks: a new `concerns` function each render must not read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lastMessage, queryClient, keyText]);
}
