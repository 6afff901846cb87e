/** Handlers of submit-an-application and application information. */
export function applicationHandlers(applications) {
    return {
        submitApplication: async ({ principal, body, headers }) => {
            const key = String(headers["idempotency-key"]);
            const { applicationId } = await applications.submit(principal, body, key);
            return {
                status: 202,
                headers: { location: `/v0/applications/${applicationId}/information` },
                body: { data: { application_request_id: applicationId } },
            };
        },
        getApplicationInformation: async ({ principal, params }) => ({
            status: 200,
            body: { data: await applications.information(principal, String(params["id"])) },
        }),
    };
}
//# sourceMappingURL=routes.js.map