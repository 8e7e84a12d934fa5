// pingduel's service worker: shows a "your turn" push as a notification and opens the game.
self.addEventListener("push", (event) => {
  let body = {};
  try {
    body = event.data ? event.data.json() : {};
  } catch (e) {
    body = {};
  }
  const text = body.content || "pingduel: something happened in your game";
  const url = body.game_id ? "/games/" + encodeURIComponent(body.game_id) : "/";
  event.waitUntil(
    self.registration.showNotification("pingduel", {
      body: text,
      tag: "pingduel-" + (body.game_id || ""),
      data: { url: url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.openWindow(url));
});
