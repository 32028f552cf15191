pm.test("Created", function () {
    pm.expect(pm.response.code).to.be.oneOf([201, 202]);
    pm.response.to.have.header('Location');
});
var user = pm.response.json();
pm.environment.set("userId", user.id);
pm.collectionVariables.set('userLocation', pm.response.headers.get('Location'));