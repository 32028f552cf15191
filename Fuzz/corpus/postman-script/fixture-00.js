pm.test("Status code is 200", function () {
    pm.response.to.have.status(200);
});
pm.test("Response time is less than 5000ms", function () {
    pm.expect(pm.response.responseTime).to.be.below(5000);
});
const jsonData = pm.response.json();
pm.test("Seed users", () => {
    pm.expect(jsonData.users).to.be.an('array');
    pm.expect(jsonData.users[0].name).to.eql('alice');
    pm.expect(jsonData.users[0]).to.have.property('role', 'admin');
    pm.expect(jsonData.count).to.be.above(1);
    pm.expect(pm.response.headers.get('Content-Type')).to.include('application/json');
});
console.log(jsonData.count);