pm.test("status is 200", function () { pm.response.to.have.status(200); });
pm.test("body", () => {
    const json = pm.response.json();
    pm.expect(json.items).to.be.an('array').that.is.not.empty;
    pm.expect(json.items[0].id).to.eql(5);
    pm.expect(json.name).to.include("al");
    pm.expect(pm.response.headers.get("Content-Type")).to.match(/json/);
    pm.environment.set("token", json.token);
});
