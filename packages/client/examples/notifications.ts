// file: notifications.ts
import { createGatewayClient } from "@lrg/client";

const client = createGatewayClient({ baseUrl: "http://127.0.0.1:8080", username: "demo", password: "demo-password" });

// A consumer loop: each event once, its duplicate deliveries acknowledged together after the handler succeeds.
const summary = await client.notifications.consume(async ({ notification, notifications }) => {
  if (notification.notification_type === "application.completed") {
    for (const document of notification.payload.data.documents) {
      await client.downloadDocument(document.download_id, { to: `./${document.download_id}.pdf` });
    }
  }
  console.log(notification.notification_type, "delivered", notifications.length, "time(s)");
});
console.log(summary); // { events, notifications, acknowledged }

// Or page through everything since a point in time yourself (version 0 spells its filters occured_*).
for await (const notification of client.notifications.listAll({ version: "v0", since: "2025-02-20T00:00:00" })) {
  console.log(notification.created_datetime, notification.notification_type);
}
await client.notifications.acknowledge(["0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4"], { version: "v0" });
