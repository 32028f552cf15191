pm.test('is a GET', function () {
    pm.expect(pm.response.json().method).to.eql('GET');
});